import {
  approvalSignalFor,
  boundAnswer,
  type Durability,
  type JSONValue,
  type PendingToolCall,
} from "@junction/core";
import * as restate from "@restatedev/restate-sdk";
import {
  APPROVAL_ROUND_STATE,
  type ApprovalNotifier,
  askedPromise,
  PENDING_APPROVALS_STATE,
  restateDurability,
} from "./restate-durability.js";

/** What the `signal` handler takes: the signal's name and value. */
export interface SignalRequest {
  readonly name: string;
  readonly value: JSONValue;
}

/**
 * The retry policy a {@link restateWorkflow} gets unless told otherwise. Restate's default
 * (first retry after 500 ms, doubling up to one minute) leaves a run idle for up to a minute
 * after its worker comes back from a crash or a deploy; this one retries within a second of
 * the worker being reachable again, and keeps trying for about a day (86,400 attempts at most
 * one second apart) before pausing the invocation for a person to resume it.
 */
export const promptRetryPolicy: restate.RetryPolicy = {
  initialInterval: 100,
  exponentiationFactor: 2,
  maxInterval: 1000,
  maxAttempts: 86_400,
  onMaxAttempts: "pause",
};

/**
 * The `signal` handler of a workflow whose `run` uses {@link restateDurability}: it resolves
 * the durable promise the run waits on (or will wait on) with the signal's value. It is a
 * shared handler, so it is served while the run is waiting, and it works with no worker
 * running the run. Resolving a promise that is already resolved fails.
 */
export const restateSignalHandler = restate.handlers.workflow.shared(
  async (ctx: restate.WorkflowSharedContext, signal: SignalRequest): Promise<void> => {
    refuseReservedName(signal);
    await ctx.promise<JSONValue>(signal.name).resolve(signal.value);
  },
);

/** The run's own promises (`junction.…`) are not signals anyone may resolve. */
function refuseReservedName(signal: SignalRequest): void {
  if (typeof signal?.name !== "string" || signal.name.startsWith("junction.")) {
    throw new restate.TerminalError(
      `The signal's name must be a string that does not begin with "junction." (the run's own promises), got ${JSON.stringify(signal?.name)}.`,
      { errorCode: 400 },
    );
  }
}

/** What the `answer` handler answers: the answer the run's promise holds, as the run reads it. */
export interface AnswerResponse {
  /** The value that resolved the call's promise first: this request's or an earlier one's. */
  readonly taken: JSONValue;
}

/**
 * The `answer` handler of a workflow whose `run` uses {@link restateDurability}: resolves the
 * call's durable promise with the answer, unless an answer resolved it first (a durable promise
 * resolves once), and answers with the value it holds, so each caller learns which answer the run
 * takes ({@link answerApproval} compares it with its own). An approval without the digests of
 * the call the run lists under that name is given as the denial the run will make of it. A shared
 * handler: served while the run waits, on any worker.
 */
export const restateAnswerHandler = restate.handlers.workflow.shared(
  { enableLazyState: true },
  async (ctx: restate.WorkflowSharedContext, signal: SignalRequest): Promise<AnswerResponse> => {
    refuseReservedName(signal);
    const promise = ctx.promise<JSONValue>(signal.name);
    try {
      await promise.resolve(signal.value);
    } catch (error) {
      // Resolved already: the first answer stands, and is what this one gets. A cancellation of
      // this handler is a TerminalError too, and is not an answer.
      if (!(error instanceof restate.TerminalError) || error instanceof restate.CancelledError) throw error;
    }
    const taken = (await promise.peek()) ?? null;
    const listed = (await ctx.get<PendingToolCall[]>(PENDING_APPROVALS_STATE)) ?? [];
    // Bound as the run binds it: to the call it lists, or (once it no longer lists it) to the
    // digests this request carries, which are the listed call's when it came from answerApproval.
    const item =
      listed.find((call) => approvalSignalFor(call, "deny").name === signal.name) ?? digestsOf(signal);
    return { taken: item === undefined ? taken : boundAnswer(item, taken) };
  },
);

/** The digests an answer carries, as the call they bind it to (for {@link boundAnswer}). */
function digestsOf(signal: SignalRequest): PendingToolCall | undefined {
  const value = signal.value;
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const { toolDigest, argumentsDigest } = value;
  if (typeof toolDigest !== "string" && typeof argumentsDigest !== "string") return undefined;
  return {
    id: signal.name,
    name: signal.name,
    input: null,
    step: 0,
    ...(typeof toolDigest === "string" ? { toolDigest } : {}),
    ...(typeof argumentsDigest === "string" ? { argumentsDigest } : {}),
  };
}

/** What the `awaitPending` handler takes: how long it may wait, at most. */
export interface AwaitPendingRequest {
  readonly timeoutMs: number;
}

/** The longest one `awaitPending` call waits (a durable timer bounds it). */
const AWAIT_PENDING_MAX_MS = 5 * 60 * 1000;

/**
 * The `awaitPending` handler of a workflow whose `run` uses {@link restateDurability}: the calls
 * that wait for a person now, or, when none do, the ones the run asks next, as soon as it
 * publishes them (it waits on the durable promise the run resolves with each new list), or `[]`
 * after `timeoutMs`. A shared handler; {@link waitForApprovals} calls it.
 */
export const restateAwaitPendingHandler = restate.handlers.workflow.shared(
  { enableLazyState: true },
  async (ctx: restate.WorkflowSharedContext, request: AwaitPendingRequest): Promise<PendingToolCall[]> => {
    const timeoutMs = request?.timeoutMs;
    if (typeof timeoutMs !== "number" || !Number.isFinite(timeoutMs) || timeoutMs < 0) {
      throw new restate.TerminalError(
        `awaitPending takes { timeoutMs }, a number of milliseconds, got ${JSON.stringify(request)}.`,
        { errorCode: 400 },
      );
    }
    // The round first, then the list: the run sets the list before the round, so a list read as
    // empty here is older than the round read, and its successor resolves the promise awaited.
    const round = (await ctx.get<number>(APPROVAL_ROUND_STATE)) ?? 0;
    const now = await stillWaiting(ctx);
    if (now.length > 0) return now;
    try {
      await ctx
        .promise<boolean>(askedPromise(round + 1))
        .get()
        .orTimeout(Math.min(timeoutMs, AWAIT_PENDING_MAX_MS));
    } catch (error) {
      if (error instanceof restate.TimeoutError) return [];
      throw error;
    }
    return stillWaiting(ctx);
  },
);

/**
 * The `pending` handler of a workflow whose `run` uses {@link restateDurability}: the calls that
 * wait for a person, as the run published them, less those an answer resolved already (`[]` when
 * none wait). A shared handler, served
 * while the run waits, on any worker of the deployment; {@link pendingApprovals} calls it.
 */
export const restatePendingHandler = restate.handlers.workflow.shared(
  async (ctx: restate.WorkflowSharedContext): Promise<PendingToolCall[]> => stillWaiting(ctx),
);

/**
 * The calls the run lists as waiting, without those whose promise an answer resolved already (the
 * run clears its list only once it read every answer of the step): what waits for a person now.
 */
async function stillWaiting(ctx: restate.WorkflowSharedContext): Promise<PendingToolCall[]> {
  const listed = (await ctx.get<PendingToolCall[]>(PENDING_APPROVALS_STATE)) ?? [];
  const waiting: PendingToolCall[] = [];
  for (const item of listed) {
    const answered = await ctx.promise<JSONValue>(approvalSignalFor(item, "deny").name).peek();
    if (answered === undefined) waiting.push(item);
  }
  return waiting;
}

/** The workflow state key a run keeps its invocation id under, for {@link restateCancelHandler}. */
export const RUN_INVOCATION_STATE = "junction.run-invocation";

/** The durable promise {@link restateCancelHandler} resolves, for a run that has not begun yet. */
const CANCEL_PROMISE = "junction.cancel";

/** What a run cancelled before it began ends with: Restate's code for a cancelled invocation. */
const CANCELLED_CODE = 409;

/**
 * The `cancel` handler of a workflow whose `run` begins with {@link beginRun} (as
 * {@link restateWorkflow}'s does): cancels the run from any process that reaches the ingress
 * (which cannot cancel a workflow by its key). A run going on is cancelled (its invocation, by the
 * id it keeps under {@link RUN_INVOCATION_STATE}); a run submitted but not begun yet (no worker has
 * taken it) ends cancelled as soon as it begins. A run already ended is left as it ended.
 */
export const restateCancelHandler = restate.handlers.workflow.shared(
  // Lazy state: the id is read from the server when this handler gets to it, not from the copy
  // Restate may send with the invocation's start, which can predate a run that began meanwhile
  // (that run would then miss both the promise and the cancel).
  { enableLazyState: true },
  async (ctx: restate.WorkflowSharedContext): Promise<void> => {
    // First the promise, then the id: a run that sets its id after this read finds the promise.
    const cancel = ctx.promise<boolean>(CANCEL_PROMISE);
    if ((await cancel.peek()) === undefined) await cancel.resolve(true);
    const id = await ctx.get<string>(RUN_INVOCATION_STATE);
    if (id !== null) ctx.invocation(restate.InvocationIdParser.fromString(id)).cancel();
  },
);

/**
 * What a `run` handler served with {@link restateCancelHandler} does first: keeps its invocation
 * id for the handler, and ends cancelled if the handler was called before the run began.
 */
export async function beginRun(ctx: restate.WorkflowContext): Promise<void> {
  ctx.set(RUN_INVOCATION_STATE, ctx.request().id);
  if ((await ctx.promise<boolean>(CANCEL_PROMISE).peek()) !== undefined) {
    throw new restate.TerminalError("The run was cancelled before it began.", { errorCode: CANCELLED_CODE });
  }
}

/** Options of {@link restateWorkflow}. */
export interface RestateWorkflowOptions {
  /** Called once per pending approval, in a journaled step (see {@link ApprovalNotifier}). */
  readonly onApprovalRequested?: ApprovalNotifier;
  /** @default {@link promptRetryPolicy} */
  readonly retryPolicy?: restate.RetryPolicy;
  /** More of Restate's workflow options (timeouts, retention). */
  readonly options?: Omit<restate.WorkflowOptions, "retryPolicy">;
}

/**
 * A Restate workflow service `name` whose `run` handler calls `run` with the
 * {@link restateDurability} port of its invocation, whose `signal` handler answers
 * `waitForSignal`, whose `pending` handler lists the calls waiting for a person, and whose
 * `cancel` handler cancels the run: the way to run a Junction run (or any function written against the port)
 * durably on Restate. Serve it with `restate.serve` (or an endpoint) and register that
 * deployment with the Restate server; the workflow key is the run's id.
 *
 * @example
 * ```ts
 * const review = restateWorkflow("review", async (durability, document: string) => {
 *   const draft = await durability.step("draft", () => writeDraft(document));
 *   const decision = await durability.waitForSignal<{ approved: boolean }>("approval:draft");
 *   return decision?.approved ? draft : "rejected";
 * });
 * await restate.serve({ services: [review], port: 9080 });
 * // elsewhere: clients.connect({ url }).workflowClient(review, "review-42").workflowSubmit("report.md")
 * ```
 */
export function restateWorkflow<Input extends JSONValue, Output extends JSONValue>(
  name: string,
  run: (durability: Durability, input: Input) => Promise<Output>,
  options?: RestateWorkflowOptions,
) {
  return restate.workflow({
    name,
    handlers: {
      run: async (ctx: restate.WorkflowContext, input: Input): Promise<Output> => {
        // For the `cancel` handler: the ingress cannot cancel a workflow by its key.
        await beginRun(ctx);
        return run(
          restateDurability(
            ctx,
            options?.onApprovalRequested ? { onApprovalRequested: options.onApprovalRequested } : {},
          ),
          input,
        );
      },
      signal: restateSignalHandler,
      answer: restateAnswerHandler,
      pending: restatePendingHandler,
      awaitPending: restateAwaitPendingHandler,
      cancel: restateCancelHandler,
    },
    options: { ...options?.options, retryPolicy: options?.retryPolicy ?? promptRetryPolicy },
  });
}
