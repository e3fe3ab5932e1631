import { JunctionError, type Message, type ModelProvider, type Warning } from "@junction/types";
import type { AgentEvent, AgentHandle, AgentResult } from "./agent-events.js";
import { type Durability, InMemoryDurability } from "./durability.js";
import { EventChannel } from "./event-channel.js";
import { withRunState } from "./failed-run-state.js";
import { JournalRecorder } from "./journal-recorder.js";
import { ownMessages } from "./message-copy.js";
import { claimResume, defaultResumeClaims, type ResumeClaims } from "./resume-claims.js";
import { runLoop } from "./run-loop.js";
import { FailedRunState, finalResult, recordRunState } from "./run-result.js";
import { planResume, type ResumeCaller, type ResumePlan } from "./run-resume.js";
import type { RunState, SourceDescriptor } from "./run-state.js";
import { type RunStateKey, signWith } from "./run-state-signature.js";
import type { ModelSettings, RunLimits, RunLoopOptions, RunTools } from "./run-types.js";

export type { RunTools };

import { type OutputSchema, type StructuredOutput, structuredOutputFor } from "./structured-output.js";
import type { Tracer } from "./tracing.js";

/**
 * One run, as plain values: what `Agent.send()`, `Agent.resume()`, `stream()` and `generate()`
 * each build and hand to {@link startRun}. Only `tools` and `hooks` hold functions.
 */
export interface RunSpec {
  provider: ModelProvider;
  model: string;
  system?: string;
  /**
   * The conversation before the run, Junction's own (`ownMessages`): never changed, the run's
   * result carries the new one. Ignored with `resume`: the conversation is the stopped run's.
   */
  history: Message[];
  tools: RunTools;
  limits: RunLimits;
  settings?: ModelSettings;
  output: { schema?: OutputSchema | undefined; repairTurns?: number | undefined };
  /** @default in memory (a resumed run's journal, with `resume`) */
  durability?: Durability;
  /**
   * Continue a run that stopped for approvals: the `Resume` value as the caller was given it
   * (untrusted input, read and checked by `planResume`), and who resumes, for its errors.
   */
  resume?: { value: unknown; caller: ResumeCaller };
  /** The keys that sign a stopped run's state and verify a resumed one. */
  keys: RunStateKey[];
  /** Where a resumed state is claimed, so it resumes once. @default this process's memory */
  resumeClaims?: ResumeClaims;
  /** @default waits while someone reads the events (or on a durable port), else 0 */
  approvalTimeoutMs?: number;
  signal?: AbortSignal;
  tracer?: Tracer;
  /** What cut and oversized parts are reported once against. @default the run */
  reportKey?: object;
  hooks?: RunHooks;
}

/** What a caller keeps of a run besides its events and result. */
export interface RunHooks {
  /**
   * A resumed run's state, read and verified, before the run goes on: restore what the caller
   * keeps of it. Returns the state's warnings to report (all of them when omitted).
   */
  onResume?(state: RunState, warnings: Warning[]): Warning[];
  /** Records the run's state each time a call finishes (in memory only; see `SendOptions.onRunState`). */
  onRunState?(state: RunState): void | Promise<void>;
  /** What a run state says besides its journal and conversation: the sources, the ledger, the loaded tools. */
  describe?(): { sources?: SourceDescriptor[]; ledger?: RunState["ledger"]; loadedTools?: string[] };
  /** The result, before `final` resolves; a stopped run's state as the caller keeps it. */
  onResult?(result: AgentResult): void;
}

/**
 * A run started by {@link startRun}: its handle, and the run's conversation once it ends, however
 * it ends — the conversation it started from and what it committed, the same array the result's
 * `messages` copies — or `undefined` when it failed before it began (its spec, or the state it
 * resumes, refused). Settled before `final`, so whoever keeps the conversation has it when an
 * `await` of `final` returns.
 */
export interface StartedRun<Output = unknown> {
  handle: AgentHandle<Output>;
  conversation: Promise<Message[] | undefined>;
}

/**
 * Starts a run: returns its handle at once; the run begins after `after` (an Agent's previous
 * run) and `build` gives its spec then. A failure to build the spec is the run's failure: an
 * `error` event, and `final` rejects.
 */
export function startRun<Output = unknown>(
  build: () => RunSpec | Promise<RunSpec>,
  options: { after?: Promise<unknown>; onEvent?: (event: AgentEvent) => void } = {},
): StartedRun<Output> {
  const channel = new EventChannel<AgentEvent>();
  const { onEvent } = options;
  let listening = onEvent !== undefined;
  const emit = (event: AgentEvent) => {
    channel.push(event);
    if (!onEvent) return;
    try {
      onEvent(event);
    } catch {
      // An observer's failure must not change the run.
    }
  };
  let ended!: (conversation: Message[] | undefined) => void;
  const conversation = new Promise<Message[] | undefined>((resolve) => {
    ended = resolve;
  });
  const final = (options.after ?? Promise.resolve()).then(async () => {
    let kept: Message[] | undefined;
    try {
      let spec: RunSpec;
      try {
        spec = await build();
      } catch (error) {
        return fail(emit, error as Error);
      }
      return await runSpec(spec, {
        emit,
        listening: () => listening,
        ended: (messages) => {
          kept = messages;
        },
      });
    } finally {
      ended(kept);
    }
  });
  final.then(
    () => channel.close(),
    () => channel.close(),
  );
  // The handle's events report a failure too; reading only events must not leave an unhandled rejection.
  final.catch(() => undefined);
  return {
    handle: {
      final: final as Promise<AgentResult<Output>>,
      [Symbol.asyncIterator]: () => {
        listening = true;
        return channel[Symbol.asyncIterator]();
      },
    },
    conversation,
  };
}

/**
 * Runs `spec` to its result: the resume plan, the structured output, the loop, the state. The
 * run's conversation, once the loop ends, goes to `channel.ended` (a failure's too), then the
 * result is returned or the failure thrown.
 */
async function runSpec(
  spec: RunSpec,
  channel: {
    emit: (event: AgentEvent) => void;
    listening: () => boolean;
    ended: (conversation: Message[]) => void;
  },
): Promise<AgentResult> {
  const { emit } = channel;
  const hooks = spec.hooks ?? {};
  let output: StructuredOutput | undefined;
  let plan: ResumePlan | undefined;
  try {
    // Before the resume's claim: what fails after it has spent the state.
    output = structuredOutputFor({
      schema: spec.output.schema,
      repairTurns: spec.output.repairTurns,
      provider: spec.provider,
      model: spec.model,
      emit,
    });
    plan = await claimedPlan(spec);
  } catch (error) {
    return fail(emit, error as Error);
  }
  // On an engine's port, the entries the run sees are kept too: a stopped run's state carries them.
  const durability = spec.durability
    ? new JournalRecorder(spec.durability)
    : new InMemoryDurability(plan ? { runId: plan.state.runId, journal: plan.journal } : {});
  // A resumed run that stops again says so: its state is claimed apart from the one it resumed.
  const resumes = plan ? (plan.state.resumes ?? 0) + 1 : undefined;
  const described = () => ({
    provider: spec.provider.name,
    model: spec.model,
    ...(resumes !== undefined ? { resumes } : {}),
    ...hooks.describe?.(),
  });
  // An engine's run goes on through the engine; one in memory fails with a state to go on from.
  const failed =
    durability instanceof InMemoryDurability
      ? new FailedRunState({
          durability,
          keys: spec.keys,
          describe: described,
          ...(plan ? { resumed: plan.state } : {}),
        })
      : undefined;
  let warnings: Warning[] = [];
  try {
    if (plan) warnings = hooks.onResume ? hooks.onResume(plan.state, plan.warnings) : plan.warnings;
  } catch (error) {
    return fail(emit, withRunState(error as Error, await failed?.state()));
  }
  const history = plan ? ownMessages(plan.state.messages) : spec.history;
  const end = await runLoop(
    loopOptions(spec, {
      history,
      durability,
      plan,
      warnings,
      output,
      emit,
      listening: channel.listening,
      described,
      failed,
    }),
  );
  // The one place the run's conversation is made: Junction's own, like the history before it.
  const conversation = history.concat(ownMessages(end.added));
  channel.ended(conversation);
  if ("error" in end) throw withRunState(end.error, await failed?.state());
  const unsigned = finalResult(
    { ...end.result, messages: conversation.slice() },
    { journal: durability, ...described(), messages: conversation },
  );
  const final = unsigned.state ? { ...unsigned, state: await signWith(unsigned.state, spec.keys) } : unsigned;
  hooks.onResult?.(final);
  // The caller keeps the state it was given; the user gets a copy of their own.
  return final.state ? { ...final, state: structuredClone(final.state) } : final;
}

/**
 * A resumed run's plan: its `Resume` read and checked (`planResume`), then its state claimed, so
 * it resumes once. `undefined` for a run that does not resume.
 */
async function claimedPlan(spec: RunSpec): Promise<ResumePlan | undefined> {
  if (!spec.resume) return undefined;
  if (spec.durability) {
    // The state's journal is the run's: an engine's port would start a journal of its own,
    // and run again what the state says finished.
    throw new JunctionError(
      "invalid-argument",
      `${spec.resume.caller.method}: a resumed run goes on in memory from its state's journal; leave out \`durability\` ` +
        "(a run waiting on an engine is answered through the engine, not resumed).",
    );
  }
  const plan = await planResume(spec.resume.value, { keys: spec.keys, caller: spec.resume.caller });
  // Only a state that read and verified is claimed: a forged one never takes a real one's turn.
  await claimResume(spec.resumeClaims ?? defaultResumeClaims(), plan.state, spec.resume.caller.method);
  return plan;
}

/** What the loop is given for `spec`: its values grouped, the conversation it starts from, its journal, the resume plan's start. */
function loopOptions(
  spec: RunSpec,
  run: {
    history: readonly Message[];
    durability: Durability;
    plan: ResumePlan | undefined;
    warnings: Warning[];
    output: StructuredOutput | undefined;
    emit: (event: AgentEvent) => void;
    listening: () => boolean;
    described: Parameters<typeof recordRunState>[0]["describe"];
    failed: FailedRunState | undefined;
  },
): RunLoopOptions {
  const { history, durability, plan, warnings, failed } = run;
  const onRunState = spec.hooks?.onRunState;
  const record =
    onRunState && durability instanceof InMemoryDurability
      ? recordRunState({ durability, keys: spec.keys, onRunState, describe: run.described })
      : undefined;
  return {
    model: {
      provider: spec.provider,
      model: spec.model,
      ...(spec.system !== undefined ? { system: spec.system } : {}),
      ...(spec.settings ? { settings: spec.settings } : {}),
    },
    history,
    tools: spec.tools,
    limits: spec.limits,
    journal: {
      durability,
      approvalTimeoutMs: () => {
        if (spec.approvalTimeoutMs !== undefined) return spec.approvalTimeoutMs;
        // A durable engine's signals come from outside; in process, only a reader can answer.
        return spec.durability || run.listening() ? undefined : 0;
      },
      ...(failed
        ? {
            onCallFinished: (point) => {
              failed.noteFinished(point);
              return record ? record(point) : Promise.resolve();
            },
          }
        : {}),
    },
    ...(plan
      ? {
          resumed: {
            firstStep: plan.state.step,
            usageBefore: plan.state.usage,
            guard: plan.guard,
            warnings,
            ...(plan.state.trace ? { trace: plan.state.trace } : {}),
          },
        }
      : {}),
    ...(run.output ? { output: run.output } : {}),
    sink: {
      emit: run.emit,
      ...(spec.tracer ? { tracer: spec.tracer } : {}),
      ...(spec.reportKey ? { reportKey: spec.reportKey } : {}),
    },
    ...(spec.signal ? { signal: spec.signal } : {}),
  };
}

/** Reports `error` on the run's events and throws it. */
function fail(emit: (event: AgentEvent) => void, error: Error): never {
  emit({ type: "error", error });
  throw error;
}
