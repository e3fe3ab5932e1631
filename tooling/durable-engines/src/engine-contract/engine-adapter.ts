// What the engine contract suite asks of a durable engine: the engine's package (`@junction/dbos`,
// `@junction/restate`) driven the way an application drives it, started for the tests. Each
// package's adapter (`packages/<engine>/test/<engine>-engine.ts`) implements it; the suite
// (define-engine-contract.ts) holds every case. Never imported by shipped code.
import type { AgentResult, Durability, JSONValue, PendingToolCall, ResumeDecision } from "@junction/core";
import type { ApprovalOutcome, DurableRunStatus, MakeAgent, RunApprovals } from "@junction/core/durable-runs";
import type { NotesRun } from "@junction/durable-engines/agent-scenario";
import type { NodeProcess } from "@junction/durable-engines/processes";

/** One durable engine, as the contract suite runs it. */
export interface EngineAdapter {
  /** The engine's name, in the suite's titles: `DBOS`, `Restate`. */
  readonly name: string;
  /** What the package calls its runs adapter and its agent workflow factory (its errors name them). */
  readonly names: { readonly runs: string; readonly workflow: string };
  /** Where the engines legitimately differ; each case reads what it needs. */
  readonly traits: EngineTraits;
  /** The package's README snippet that waits for a run's question and answers it. */
  readonly readme: ReadmeSnippetOf;
  /**
   * The message of a run the engine never saw, as the runs adapter's `status` gives it (`failed`).
   */
  missingRunMessage(runId: string): string;
  /**
   * The Agent of a run that fails for good, and the message its task then shows: the engine
   * must not retry it (on Restate a failure that is not terminal is retried).
   */
  readonly brokenRun: { readonly makeAgent: MakeAgent; readonly message: string };
  /**
   * Registers an agent workflow named `name` in this process, with the package's agent workflow
   * factory. The suite calls it while it is defined, before `launch` (DBOS takes workflows only
   * before it launches).
   */
  agentWorkflow(name: string, makeAgent: MakeAgent): void;
  /**
   * Registers `run` as a workflow named `name` in this process, with the package's workflow
   * factory (`dbosWorkflow`, `restateWorkflow`): a run gets the port of its own and the name of a
   * port scenario as its input. Called as `agentWorkflow` is, before `launch`.
   */
  portWorkflow(name: string, run: (durability: Durability, scenario: string) => Promise<string>): void;
  /**
   * How a run sees the error of a step that failed: `code …, metadata.code …` of what the port
   * threw (DBOS hands on the Junction error; Restate a terminal error, code 500, the Junction
   * code in its metadata).
   */
  readonly failedStepSeenAs: string;
  /** Starts the engine for the workflows registered in this process (and stops it with `stop`). */
  launch(): Promise<LaunchedEngine>;
  /** Starts the engine for workers in processes of their own (and stops it with `stop`). */
  startForWorkers(): Promise<EngineForWorkers>;
}

/** How an engine may differ from another while meeting the contract. */
export interface EngineTraits {
  /**
   * `true`: a run cancelled reads as cancelled (and lists nothing) as soon as the cancel resolved
   * (DBOS). `false`: the cancel is sent, and the run ends cancelled once the engine gets to it
   * (Restate).
   */
  readonly cancelEndsAtOnce: boolean;
  /**
   * `true`: a step is in the journal before the code after it runs (DBOS writes it first).
   * `false`: the engine acknowledges it a moment after the code goes on (Restate), so a test
   * that kills a worker after a step waits until the journal holds it.
   */
  readonly journalsBeforeGoingOn: boolean;
  /**
   * `true`: a run's pending calls are listed with no worker running (DBOS reads its database).
   * `false`: listing them needs a worker (Restate's `pending` handler).
   */
  readonly listsWithoutWorker: boolean;
  /**
   * `true`: a signal sent to a run not started yet is kept for it (Restate's durable promises).
   * `false`: only a started run can be sent one (DBOS refuses the signal).
   */
  readonly signalsBeforeStart: boolean;
}

/** The README snippet `readme-snippets.ts` runs as written. */
export interface ReadmeSnippetOf {
  /** The package's directory (where the snippet's imports resolve) with its README.md. */
  readonly packageDir: string;
  /** The file name the README gives the snippet (`approve.ts`). */
  readonly file: string;
  /** The snippet submits the run itself (else the test starts it first). */
  readonly submitsRun: boolean;
  /** The snippet prints the run's answer last. */
  readonly printsAnswer: boolean;
}

/** The engine running the workflows registered in this process. */
export interface LaunchedEngine {
  /** Starts the run `runId` of the workflow `workflow` on `request`. */
  submit(workflow: string, runId: string, request: { input: string }): Promise<void>;
  /** The run's result, once it ended. */
  result(workflow: string, runId: string): Promise<AgentResult>;
  /** The package's approval API for the runs of `workflow`, through this process's client. */
  approvals(workflow: string): ApprovalsClient;
  /** `count` clients of their own, as that many processes would have (the suite closes them). */
  separateApprovals(workflow: string, count: number): Promise<ApprovalsClient[]>;
  /** The package's runs adapter for `@junction/mcp-server`'s `tasks.runs`: agent tool → workflow name. */
  agentRuns(workflows: Record<string, string>): AgentRunsUnderTest;
  /** The runs of `workflow`, registered with `portWorkflow`. */
  port(workflow: string): PortRuns;
  /** The environment the README snippet reads the engine from. */
  readonly snippetEnvironment: Record<string, string>;
  stop(): Promise<void>;
}

/** The runs of a workflow registered with `EngineAdapter.portWorkflow`. */
export interface PortRuns {
  /** Starts the run `runId` on the port scenario `scenario` (the same id again: the same run). */
  start(runId: string, scenario: string): Promise<void>;
  /** The run's result, once it ended. */
  result(runId: string): Promise<string>;
  /** Sends the run the signal `name` with `value`, with the package's `sendSignal`. */
  signal(runId: string, name: string, value: JSONValue): Promise<void>;
  /** The names of the steps the engine journaled as finished for the run, in the order they were asked for. */
  journaledSteps(runId: string): Promise<string[]>;
}

/** `pendingApprovals`, `approvalStatus`, `waitForApprovals`, `answerApproval` and `sendSignal` of one workflow's runs. */
export interface ApprovalsClient {
  pendingApprovals(runId: string): Promise<PendingToolCall[]>;
  approvalStatus<Output = unknown>(runId: string): Promise<RunApprovals<Output>>;
  waitForApprovals<Output = unknown>(
    runId: string,
    options: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<RunApprovals<Output>>;
  /** `answerApproval`, until the run took an answer (`until: "decided"`). */
  answerApproval(options: {
    runId: string;
    item: PendingToolCall;
    decision: ResumeDecision;
    idempotencyKey?: string;
  }): Promise<ApprovalOutcome>;
  /** A hand-built signal (no digests), sent so that the run reads it. */
  sendSignal(runId: string, name: string, value: { approved: boolean }): Promise<void>;
  close(): Promise<void>;
}

/** What `dbosAgentRuns` and `restateAgentRuns` make (`DurableAgentRuns`, with `answerApproval`). */
export interface AgentRunsUnderTest {
  start(run: { tool: string; runId: string; request: string }): Promise<void>;
  status(runId: string): Promise<DurableRunStatus>;
  answer(runId: string, item: PendingToolCall, decision: ResumeDecision): Promise<void>;
  answerApproval(runId: string, item: PendingToolCall, decision: ResumeDecision): Promise<ApprovalOutcome>;
  cancel(runId: string): Promise<void>;
}

/** The engine, for workers in processes of their own (`packages/<engine>/test/workers`). */
export interface EngineForWorkers {
  /** Workers of the notes Agent (`agent-worker.ts` in the package) for one test's run. */
  notesWorkers(run: NotesRun): Promise<NotesWorkers>;
  /** Workers of the crash scenarios' durable functions (`worker.ts`), recording to `eventsFile`. */
  stepsWorkers(eventsFile: string): Promise<StepsWorkers>;
  /** A crash of the engine itself and a start again on the same data (PostgreSQL; the Restate server). */
  restartEngine(): Promise<void>;
  stop(): Promise<void>;
}

/** How one test starts the notes Agent's workers and reaches their runs. */
export interface NotesWorkers {
  /**
   * Starts a worker process with `env` (on top of the run's). The runs named in `runs` are started
   * on it (as `notes` runs), and `failingModelRun` as a run of `failing-model`.
   */
  start(options?: {
    runs?: string[];
    failingModelRun?: string;
    env?: Record<string, string>;
  }): Promise<NodeProcess>;
  /** The run's result (the `AgentResult`, or what `failing-model` returned), within 20 s; `worker`'s output names a hang. */
  result<T = AgentResult>(
    runId: string,
    worker: NodeProcess,
    workflow?: "notes" | "failing-model",
  ): Promise<T>;
  /** `pendingApprovals` from the test's process. */
  pendingApprovals(runId: string): Promise<PendingToolCall[]>;
  /**
   * The approver's process (`approvals.ts`): `list` the pending calls of each run, or `approve`
   * each as listed (an item of a run in `edited` as if it had shown those arguments instead).
   */
  fromApprover(
    action: "list" | "approve",
    runIds: string[],
    edited?: Record<string, unknown>,
  ): Promise<Record<string, PendingToolCall[]>>;
  /** Answers `item` with `answerApproval` (`until: "accepted"`) from a process of its own (`send-signal.ts`). */
  approveFrom(runId: string, item: PendingToolCall): Promise<void>;
  /** Cancels the run from the test's process. */
  cancel(runId: string): Promise<void>;
  /** The steps the engine journaled as finished for the run, in order. */
  journaledSteps(runId: string, workflow?: "notes" | "failing-model"): Promise<string[]>;
  close(): Promise<void>;
}

/** How one test starts the crash scenarios' workers (`crash-scenarios.ts`). */
export interface StepsWorkers {
  /** Starts a worker process with `env`; `run` is started on it. */
  start(options?: {
    run?: { workflow: "two-steps" | "parallel-steps"; runId: string };
    env?: Record<string, string>;
  }): Promise<NodeProcess>;
  /** Sends the scenarios' approval to the `two-steps` run from a process of its own. */
  sendApproval(runId: string): Promise<void>;
  /** The run's result, within 15 s. */
  result(runId: string, worker: NodeProcess, workflow?: "two-steps" | "parallel-steps"): Promise<string>;
  close(): Promise<void>;
}
