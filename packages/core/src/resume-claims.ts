import { JunctionError } from "@junction/types";
import type { RunState } from "./run-state.js";

/**
 * Where the resumes of stopped runs are claimed, so that one stopped state resumes once: a second
 * `resume()` of the same state, or of another state the same part of the run stopped with or
 * recorded (`onRunState`), here or in any process sharing the claims, is refused with
 * `run-state-resumed` before anything runs, so an approved call cannot run twice because its run
 * was resumed twice. A run that stops again returns a new state (its `resumes` one more), which is
 * claimed anew.
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
 * What a stopped state is claimed by: its run and how many resumes came before it, that is, the
 * part of the run (one `send()` or `resume()`) that stopped. Every state one part gives, the one it
 * stops with and those it records as it goes (`onRunState`, whatever calls each waits on), shares
 * it: whichever resumes first, the rest are refused, so the run goes on from one of them only and
 * an approved call runs once. A resume that decided nothing stops again, as a new part, with its
 * own key.
 */
export function resumeClaimKey(state: Pick<RunState, "runId" | "resumes">): string {
  return JSON.stringify(["run-part", state.runId, state.resumes ?? 0]);
}

/**
 * The key an earlier Junction claimed a state by (its run, step, waiting calls and resumes):
 * claimed too, so a state resumed before an upgrade, with claims that outlive it
 * (`fileResumeClaims`), is not resumed again after it.
 */
function formerClaimKey(state: Pick<RunState, "runId" | "step" | "pending" | "resumes">): string {
  const waiting = state.pending.map((call) => call.id).sort();
  const key = [state.runId, state.step, waiting];
  return JSON.stringify(state.resumes === undefined ? key : [...key, state.resumes]);
}

/** Claims `state`'s resume, or throws `run-state-resumed` naming the state and what to do instead. */
export async function claimResume(claims: ResumeClaims, state: RunState, method: string): Promise<void> {
  if ((await claims.claim(resumeClaimKey(state))) && (await claims.claim(formerClaimKey(state)))) return;
  throw new JunctionError(
    "run-state-resumed",
    `${method}: this state (run "${state.runId}", step ${state.step}, waiting on ${state.pending.map((call) => `"${call.id}"`).join(", ")}), or another state the same part of the run stopped with or recorded (\`onRunState\`), was resumed already, here or in a process sharing \`resumeClaims\`; a run goes on from one of its states once, so its approved calls run once. ` +
      "Resume the state that resume returned (if it stopped again), or start a new run.",
  );
}
