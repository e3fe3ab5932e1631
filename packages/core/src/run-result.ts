import type { Message } from "@junction/types";
import type { AgentResult, AgentStoppedResult } from "./agent-events.js";
import { programCallCounts, programCallSequence, providerCallParent } from "./code-mode/provider-program.js";
import type { InMemoryDurability } from "./durability.js";
import { argumentsDigest } from "./run-digests.js";
import {
  gateSchema,
  modelKey,
  modelTurnSchema,
  parseJournalKey,
  type ToolSnapshot,
  toolKey,
} from "./run-journal.js";
import { type PendingToolCall, type RunState, stoppedRunState } from "./run-state.js";
import { type RunStateKey, signWith } from "./run-state-signature.js";
import type { FinishedCallPoint, RunLoopResult } from "./run-types.js";

/**
 * The result as `final` gives it: a run that stopped for approvals carries its `state`, made from
 * `parts.journal` (the in-memory port's journal, or on a durable engine's port the entries the
 * run saw: a run there stops only when an `approvalTimeoutMs` the caller set runs out, and the
 * engine's run has ended with it).
 */
export function finalResult(
  result: RunLoopResult & { messages: Message[] },
  parts: Omit<
    Parameters<typeof stoppedRunState>[0],
    "journal" | "step" | "pending" | "usageBefore" | "trace"
  > & {
    journal: Pick<InMemoryDurability, "runId" | "journal">;
  },
): AgentResult {
  const { interruption, trace, finishReason, pending, output, ...rest } = result;
  if (finishReason !== "approval-required") {
    return { ...rest, finishReason, ...("output" in result ? { output } : {}) };
  }
  const stopped = { ...rest, finishReason, pending: pending ?? [] };
  // Unreachable: the loop sets `interruption` exactly when it stops with approval-required.
  if (!interruption) return stopped as AgentStoppedResult;
  const state = stoppedRunState({
    ...parts,
    ...(trace ? { trace } : {}),
    step: interruption.step,
    pending: stopped.pending,
    usageBefore: interruption.usageBefore,
  });
  return { ...stopped, state };
}

/** What a state made mid-run is made of besides the point it is made at. */
interface StateParts {
  durability: InMemoryDurability;
  keys: RunStateKey[];
  describe: () => Omit<
    Parameters<typeof stoppedRunState>[0],
    "journal" | "step" | "pending" | "usageBefore" | "messages"
  >;
}

/**
 * The `onCallFinished` of a run whose application records its state as it goes (`onRunState`):
 * after each finished call, the run's state at that point (signed with `keys`), in order. A
 * state recorded mid-step lists the step's finished calls as finished, the calls waiting for a
 * person as pending; resuming it runs neither a finished call nor one nobody allowed.
 */
export function recordRunState(
  parts: StateParts & { onRunState: (state: RunState) => void | Promise<void> },
): (finished: FinishedCallPoint) => Promise<void> {
  let saved: Promise<void> = Promise.resolve();
  return (point) => {
    // A call that finished while the model was still streaming: recorded with the next one.
    if (!stateCanBeMadeAt(parts.durability, point)) return saved;
    const state = stateAt(parts, point);
    // In order: a later state holds everything an earlier one does.
    saved = saved.then(async () => {
      await parts.onRunState(await signed(parts, state));
    });
    return saved;
  };
}

/**
 * Where a run that fails goes on from (`runStateOf` on its error): the state at the last point one
 * of its calls finished, made when it fails, or, for a resumed run none of whose calls finished, the
 * state it resumed, given anew as a state of this part of the run (its `resumes` this part's, so it
 * is claimed apart from the spent one). `undefined` for a new run none of whose calls finished: the
 * caller still has everything it started from.
 */
export class FailedRunState {
  #last: FinishedCallPoint | undefined;

  constructor(private readonly parts: StateParts & { resumed?: RunState }) {}

  /** The loop's `onCallFinished` notice (a copy of the conversation: the loop's goes on growing). */
  noteFinished(point: FinishedCallPoint): void {
    if (stateCanBeMadeAt(this.parts.durability, point))
      this.#last = { ...point, conversation: point.conversation.slice() };
  }

  /**
   * The state, signed, or `undefined`, also when it cannot be made: the run's own error is what
   * its caller must see, never one of making the state.
   */
  async state(): Promise<RunState | undefined> {
    try {
      return await this.#made();
    } catch {
      return undefined;
    }
  }

  async #made(): Promise<RunState | undefined> {
    const { parts } = this;
    if (this.#last) return signed(parts, stateAt(parts, this.#last));
    if (!parts.resumed) return undefined;
    const { signature: _spent, ...resumed } = parts.resumed;
    const { resumes } = parts.describe();
    return signed(parts, {
      ...structuredClone(resumed),
      createdAt: new Date().toISOString(),
      ...(resumes !== undefined ? { resumes } : {}),
    });
  }
}

/** Whether a state can be made at `point`: the step's model answer is journaled (else it is made at the next point). */
function stateCanBeMadeAt(durability: InMemoryDurability, point: FinishedCallPoint): boolean {
  return Object.hasOwn(durability.journal, modelKey(point.step));
}

/** The run's state at `point`, unsigned, its pending calls as they wait now. */
function stateAt(parts: StateParts, point: FinishedCallPoint): RunState {
  const { step, usageBefore, conversation, listed, trace } = point;
  return stoppedRunState({
    ...parts.describe(),
    ...(trace ? { trace } : {}),
    messages: conversation as Message[],
    journal: parts.durability,
    step,
    pending: waitingCalls(parts.durability.journal, { step, listed, conversation }),
    usageBefore,
  });
}

/** `state` with its pending calls' digests, signed with `parts.keys`. */
async function signed(parts: Pick<StateParts, "keys">, state: RunState): Promise<RunState> {
  return signWith({ ...state, pending: await withDigests(state.pending, state.tools) }, parts.keys);
}

/**
 * The waiting calls with the digests an answer is bound to, as a stopped run lists them: the tool's
 * from the step's snapshot, the arguments' from their canonical JSON.
 */
async function withDigests(pending: PendingToolCall[], tools: ToolSnapshot[]): Promise<PendingToolCall[]> {
  return Promise.all(
    pending.map(async (item) => {
      const digest = tools.find((snapshot) => snapshot.name === item.name)?.digest;
      return {
        ...item,
        ...(digest !== undefined ? { toolDigest: digest } : {}),
        argumentsDigest: await argumentsDigest(item.input),
      };
    }),
  );
}

/**
 * The calls of step `step` the policy asked a person about and that have not finished: as they
 * were listed (a program's call with its parent), else, for a call of the model turn that was
 * decided but not listed yet, from its journaled answer and the turn (a vendor's program's call
 * with its parent, numbered on from the conversation before the step). A sandbox program's call
 * that was not listed yet is left out: the journal does not name its tool, and a resume decides
 * it again as a new call of the program (one that needs a person asks).
 */
function waitingCalls(
  journal: InMemoryDurability["journal"],
  at: { step: number; listed: ReadonlyMap<string, PendingToolCall>; conversation: readonly Message[] },
): PendingToolCall[] {
  const { step, listed } = at;
  const turn = modelTurnSchema.safeParse(journal[modelKey(step)]);
  const turnCalls = turn.success ? turn.data.content.filter((part) => part.type === "tool-call") : [];
  let earlier: Map<string, number> | undefined;
  const waiting: PendingToolCall[] = [];
  for (const [key, value] of Object.entries(journal)) {
    const parsed = parseJournalKey(key);
    if (parsed?.kind !== "gate" || parsed.step !== step || parsed.callId === undefined) continue;
    if (Object.hasOwn(journal, toolKey(step, parsed.callId))) continue;
    const gate = gateSchema.safeParse(value);
    if (!gate.success || gate.data.kind !== "ask") continue;
    const item = listed.get(parsed.callId);
    if (item) {
      waiting.push(item);
      continue;
    }
    const part = turnCalls.find((call) => call.id === parsed.callId);
    if (!part) continue;
    if (part.program) earlier ??= programCallCounts(at.conversation);
    const parent = part.program
      ? providerCallParent(part, programCallSequence(turnCalls, part.id, earlier!))
      : undefined;
    const { input, reason, source } = gate.data;
    waiting.push({
      id: parsed.callId,
      name: part.name,
      input,
      step,
      ...(reason ? { reason } : {}),
      ...(source ? { source } : {}),
      ...(parent ? { parent } : {}),
    });
  }
  return waiting;
}
