import type {
  Message,
  ModelProvider,
  ModelRequest,
  ToolCallPart,
  ToolDefinition,
  ToolProgress,
  ToolResultMessagePart,
  Usage,
  Warning,
} from "@junction/types";
import type {
  AgentEvent,
  AgentFinishReason,
  AgentResultBase,
  NestedCallOf,
  PendingToolCall,
} from "./agent-events.js";
import type { ConcurrencyLimit } from "./concurrency-limit.js";
import type { CoreTool } from "./core-tool.js";
import type { Durability } from "./durability.js";
import type { GateEntry } from "./run-journal.js";
import type { ResumeGuard } from "./run-resume.js";
import type { RunSpans } from "./run-spans.js";
import type { ToolSnapshot } from "./run-state.js";
import type { StructuredOutput } from "./structured-output.js";
import type { RequestSizeFold } from "./token-estimate.js";
import type { ToolCallIds } from "./tool-call-ids.js";
import type { ModelViewFolds } from "./tool-result-budget.js";
import type { TraceCarrier } from "./trace-carrier.js";
import type { Tracer } from "./tracing.js";

/** Model settings passed through on every request of a run. */
export type ModelSettings = Pick<
  ModelRequest,
  "maxTokens" | "temperature" | "topP" | "stopSequences" | "toolChoice" | "providerOptions"
>;

/** How one tool call ended, before its output is normalised. */
export type ToolCallExecution =
  | { kind: "output"; value: unknown; durationMs: number; source?: string }
  | {
      kind: "error";
      message: string;
      outcome: "error" | "denied" | "invalid-input" | "not-found";
      durationMs: number;
      source?: string;
    };

/**
 * What a caller's `prepareStep` gives for one step: the tool definitions it offers, the tools a
 * call can reach by name (`T`: the Agent's registered tools, `stream()`'s definitions), the
 * closed-world tools whose results the conversation already holds, and Junction tools of its own
 * (the Agent's tool search).
 */
export interface StepTools<T = unknown> {
  definitions: ToolDefinition[];
  tools: ReadonlyMap<string, T>;
  /** The closed-world tools whose results the model has seen before this step (the exfiltration guard). */
  privateDataFrom: readonly string[];
  /** Tools Junction offers besides `definitions`, answered without the approval policy. */
  coreTools?: CoreTool[];
}

/**
 * One step's tools as the loop settled them, handed to the tool runner with every call of the
 * step: what `prepareStep` gave, the definitions the model was offered (Junction's own tools and
 * the answer tool included), the core tools by name, and the digest of each offered tool as its
 * journaled snapshot has it. A value: nothing reads a step's tools any other way.
 */
export interface StepPlan<T = unknown> {
  readonly step: number;
  readonly tools: ReadonlyMap<string, T>;
  readonly privateDataFrom: readonly string[];
  /** The definitions the model was offered this step. */
  readonly offered: readonly ToolDefinition[];
  readonly coreTools: ReadonlyMap<string, CoreTool>;
  /** The digest of each tool the step offered, by name (empty without snapshots). */
  readonly toolDigests: ReadonlyMap<string, string>;
  /** On a replayed step: the tools that changed since it first ran, with the reason a call to one is refused. */
  readonly changedTools: ReadonlyMap<string, string>;
}

/** What a tool runner gets besides the call. */
export interface ToolExecutorContext<T = unknown> {
  /** Aborted when the run is aborted or fails. */
  signal: AbortSignal;
  step: number;
  /** The step's tools, as the loop settled them. */
  plan: StepPlan<T>;
  /** Reports a warning of the step. */
  warn(warning: Warning): void;
  emit(event: AgentEvent): void;
  /** Runs `task` within the run's tool concurrency bound. */
  limit<T>(task: () => Promise<T>): Promise<T>;
  /**
   * Takes a tool's progress report: recorded on its span and, checked and rate-limited, emitted
   * as a `tool-progress` event for this call. Never throws.
   */
  onProgress(progress: ToolProgress): void;
  /** The call's idempotency key (run id, step, call id): the same in every replay of the run. */
  idempotencyKey?: string;
}

/** A call the model asked for, under its id in the conversation. */
export interface ToolCallRequestPart {
  id: string;
  name: string;
  input: unknown;
}

/**
 * How the loop runs the calls the model asks for: `decide` (may a call run, must a person be
 * asked) and `execute` (run an allowed call). Neither throws except on abort.
 */
export interface ToolRunner<T = unknown> {
  /** Whether `decide` asks a policy whose answers must be journaled (a replay must not ask it again). */
  readonly journalsDecisions: boolean;
  decide(call: ToolCallRequestPart, context: ToolExecutorContext<T>): Promise<GateEntry>;
  execute(call: ToolCallRequestPart, context: ToolExecutorContext<T>): Promise<ToolCallExecution>;
  /**
   * Snapshots of the tools offered this step (name, source, digest), journaled per step: a
   * replayed step refuses calls to tools that changed since. Omitted: no such check.
   */
  snapshot?(plan: StepTools<T>): Promise<ToolSnapshot[]>;
  /** Told how every call of the run ended, replayed ones included (the Agent's exfiltration ledger). */
  settled?(call: ToolCallRequestPart, outcome: string, plan: StepPlan<T>): void;
  /**
   * What the exfiltration guard knows of private data, for programs (code mode): whether a call
   * to tool `name` reads private data (a closed-world tool), and to record that a program's call
   * returned to the model what such calls read.
   */
  privacy?: {
    reads(name: string, plan: StepPlan<T>): boolean;
    record(callId: string): void;
  };
}

/** What a run asks the model with, on every request. */
export interface RunModel {
  provider: ModelProvider;
  model: string;
  system?: string;
  settings?: ModelSettings;
}

/**
 * Where each step's tools come from and who runs the calls; `T` is what a tool is to both (the
 * Agent's registered tools, `stream()`'s definitions), so the runner reads the plan's tools as
 * `prepareStep` gave them.
 */
export interface RunTools<T = unknown> {
  /**
   * Called before each step with the conversation so far: the step's tools (may resolve MCP
   * sources).
   */
  prepareStep(
    step: number,
    context: { conversation: readonly Message[]; warn: (warning: Warning) => void },
  ): Promise<StepTools<T>>;
  /** Omitted: the run stops at the first turn that calls tools and leaves the calls to the caller. */
  runner?: ToolRunner<T>;
  /**
   * Tools one request may carry, Junction's own included (the Agent's `toolLimits.maxTools`):
   * when the core tools would go over it, the last of the step's tools make room. Omitted: no bound.
   */
  maxTools?: number;
}

/** How far a run goes and how wide: steps, calls at once, the text a result may keep. */
export interface RunLimits {
  maxSteps: number;
  toolConcurrency: number;
  maxToolOutputChars?: number;
}

/** Where a run's model and tool calls are journaled, and how its approvals wait. */
export interface RunJournal {
  /** @default an in-memory journal */
  durability?: Durability;
  /**
   * How long an approval waits for its answer (asked when the wait starts); `undefined` waits
   * as long as the port allows, `0` does not wait: the run ends with `approval-required`.
   */
  approvalTimeoutMs?: () => number | undefined;
  /** Told each time a call of a step finishes live (its result is journaled), before the step goes on; the run waits for it. */
  onCallFinished?(finished: FinishedCallPoint): Promise<void>;
}

/** Where a run is when one of its calls finished: what a state recorded then is made of. */
export interface FinishedCallPoint {
  /** The step the call belongs to. */
  step: number;
  /** The run's usage before that step. */
  usageBefore: Usage;
  /** The conversation before that step. */
  conversation: readonly Message[];
  /** The step's calls listed for a person's approval so far, by id (see `RunForCalls.listed`). */
  listed: ReadonlyMap<string, PendingToolCall>;
  /** The trace context of the run's first part, for the state's `trace`, when the tracer gives one. */
  trace?: TraceCarrier;
}

/** A run resumed from a stored state: where it starts, what it checks, what it says first. */
export interface ResumedRun {
  /** The step that stopped: the run starts there. */
  firstStep: number;
  /** Usage of the run's steps before `firstStep`. */
  usageBefore: Usage;
  /**
   * Every unfinished call of the step it resumes is decided again and checked against the
   * state's pending calls (see `ResumeGuard`).
   */
  guard: ResumeGuard;
  /** The trace context of the run's first part, which the run span links to. */
  trace?: TraceCarrier;
  /** Warnings about the state: emitted first, and in the result's `warnings`. */
  warnings: Warning[];
}

/** Where a run reports: its events, what it commits to the conversation, its spans. */
export interface RunSink {
  emit(event: AgentEvent): void;
  /** Receives the run's spans, derived from its events. */
  tracer?: Tracer;
  /**
   * What cut and oversized parts were reported against: they are reported once per key.
   * @default the run
   */
  reportKey?: object;
}

/**
 * Everything one run of the tool loop needs, as a few named values: what it asks the model
 * with, the conversation before it (read when the run starts and never changed: the loop
 * returns the messages it adds), its tools, its limits, its journal, where it resumes from,
 * its structured answer, where it reports, and the caller's abort signal.
 */
export interface RunLoopOptions {
  model: RunModel;
  history: readonly Message[];
  tools: RunTools;
  limits: RunLimits;
  journal: RunJournal;
  resumed?: ResumedRun;
  /** The run asks for a structured answer: where its format goes, and the check of the answer. */
  output?: StructuredOutput;
  sink: RunSink;
  signal?: AbortSignal;
}

/**
 * A run's result before `finalResult` shapes it for the user, and where it stopped when it
 * stopped for approvals.
 */
export interface RunLoopResult extends Omit<AgentResultBase, "messages"> {
  finishReason: AgentFinishReason;
  output?: unknown;
  /** With `approval-required`: the calls waiting for a decision. */
  pending?: PendingToolCall[];
  /** Set when the run stopped for approvals: the step that stopped and the usage before it. */
  interruption?: { step: number; usageBefore: Usage };
  /** With `interruption`: the trace context of the run's first part, for `RunState.trace`. */
  trace?: TraceCarrier;
}

/**
 * How a run of the loop ended: its result, or the error that ended it (reported already as the
 * `error` event), with the messages it committed after the conversation it was given (a step's
 * answer and results, a repair request, the cancelled results of an aborted step), in order, so
 * the conversation is whole after an abort or a failure too.
 */
export type RunLoopEnd = { added: Message[] } & ({ result: RunLoopResult } | { error: Error });

/** The state one run shares across its steps: passed around, never captured across files. */
export interface Run {
  readonly options: RunLoopOptions;
  readonly durability: Durability;
  readonly controller: AbortController;
  /** The run's spans, derived from what the loop reports. */
  readonly spans: RunSpans;
  readonly ids: ToolCallIds;
  /**
   * The conversation as the next step sees it: the one before the run, then the steps committed.
   * The loop's own array (copied once when the run starts), never the caller's: what a provider is
   * handed is never what the caller keeps (the caller keeps what the run's end returns).
   */
  readonly conversation: readonly Message[];
  /** The run's scans of its conversation, kept across its steps so each scans only what was appended. */
  readonly folds: RunFolds;
  /** The core-tool warnings the run gave already (each is given once a run, not once a step). */
  readonly coreToolWarnings: Set<string>;
  warn(warning: Warning): void;
}

/** A run's scans of its conversation. */
export interface RunFolds {
  /** The model's view of the conversation (media limits, tool-result budget), and whether a result is cut. */
  readonly view: ModelViewFolds;
  /** The request's size. */
  readonly requestSize: RequestSizeFold;
}

/** How one call ended: a result for the model, or a question nobody answered yet. */
export type CallOutcome =
  | {
      kind: "result";
      part: ToolResultMessagePart;
      /** How it went (`success`, `error`, `denied`, …), as journaled. */
      outcome?: string;
      /** For a program's call: the tool and arguments digest its journaled result was for. */
      call?: { name: string; argumentsDigest: string };
    }
  | { kind: "pending"; pending: PendingToolCall; more?: PendingToolCall[] };

/**
 * What a step's calls read of their run, named one by one (the run itself stays the loop's): its
 * journal, its spans, where it reports, the resumed state's guard, its output limit, how long a
 * question may wait, and how a finished call is recorded.
 */
export interface RunForCalls {
  readonly durability: Durability;
  readonly spans: RunSpans;
  emit(event: AgentEvent): void;
  /** With a resumed run: how its stopped step's calls are decided again (see `ResumeGuard`). */
  readonly resumedGuard: ResumeGuard | undefined;
  /** Characters of text a result may keep (`maxToolOutputChars`, or the default). */
  readonly maxToolOutputChars: number;
  /** How long a question waits for a person: `undefined` waits on. */
  approvalTimeoutMs(): number | undefined;
  /**
   * Records the run's state once a call of the step finished (its usage and conversation before
   * the step); absent when nothing records it, so a call makes no hop for it.
   */
  readonly callFinished: (() => Promise<void>) | undefined;
  /**
   * The step's calls listed for a person's approval, by id, as they were listed (a program's call
   * with its `parent`): a state recorded mid-step lists these as its pending calls.
   */
  readonly listed: Map<string, PendingToolCall>;
}

/** What a call needs of the step it belongs to. */
export interface StepScope {
  readonly run: RunForCalls;
  readonly stepNumber: number;
  /** Aborts the step's calls (the run's abort, or a failed model turn). */
  readonly controller: AbortController;
  readonly limit: ConcurrencyLimit;
  /** The step's tools, as the loop settled them. */
  readonly plan: StepPlan;
  warn(warning: Warning): void;
  /**
   * The program a call of the step belongs to when the model vendor ran it (provider-mode code
   * mode) and its sequence among that program's calls; `undefined` for any other call.
   */
  programCallOf(call: ToolCallPart): NestedCallOf | undefined;
}
