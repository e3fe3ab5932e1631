import { JunctionError } from "@junction/types";
import type { RunState } from "./run-state.js";

/**
 * Where the resumes of stopped runs are claimed, so that one stopped state resumes once: a second
 * `resume()` of the same state (the same run, step and waiting calls), here or in any process
 * sharing the claims, is refused with `run-state-resumed` before anything runs, so an approved
 * call cannot run twice because its state was resumed twice. A run that stops again returns a new
 * state (its `resumes` one more), which is claimed anew.
 */
export interface ResumeClaims {
  /** Takes `key`: `true` for the first caller ever, `false` for every later one. Atomic across the processes that share it. */
  claim(key: string): Promise<boolean>;
}

/** Claims kept in memory, at most this many (the oldest are forgotten first). */
const MAX_MEMORY_CLAIMS = 100_000;

/**
 * Claims in this process's memory: what an Agent uses when `resumeClaims` is not set. Shared by
 * every Agent of the process; for resumes in several processes, give them shared claims
 * (`fileResumeClaims(directory)` from `@junction/core/node`, or a store of your own with an
 * atomic insert, such as a database's unique key).
 */
export function memoryResumeClaims(): ResumeClaims {
  const taken = new Set<string>();
  return {
    claim: async (key) => {
      if (taken.has(key)) return false;
      taken.add(key);
      if (taken.size > MAX_MEMORY_CLAIMS) taken.delete(taken.values().next().value!);
      return true;
    },
  };
}

/** The process's own claims, made on first use. */
let processClaims: ResumeClaims | undefined;
export function defaultResumeClaims(): ResumeClaims {
  processClaims ??= memoryResumeClaims();
  return processClaims;
}

/**
 * What a stopped state is claimed by: its run, its step, the calls it waits on, and how many
 * resumes came before it (a resume that decided nothing stops again on the same calls). The
 * states recorded during one stop (`onRunState`) share it: whichever resumes first, the rest are refused.
 */
export function resumeClaimKey(state: Pick<RunState, "runId" | "step" | "pending" | "resumes">): string {
  const waiting = state.pending.map((call) => call.id).sort();
  const key = [state.runId, state.step, waiting];
  return JSON.stringify(state.resumes === undefined ? key : [...key, state.resumes]);
}

/** Claims `state`'s resume, or throws `run-state-resumed` naming the state and what to do instead. */
export async function claimResume(claims: ResumeClaims, state: RunState, method: string): Promise<void> {
  if (await claims.claim(resumeClaimKey(state))) return;
  throw new JunctionError(
    "run-state-resumed",
    `${method}: this state (run "${state.runId}", step ${state.step}, waiting on ${state.pending.map((call) => `"${call.id}"`).join(", ")}) was resumed already, here or in a process sharing \`resumeClaims\`; a state resumes once, so its approved calls run once. ` +
      "Resume the state that resume returned (if it stopped again), or start a new run.",
  );
}
