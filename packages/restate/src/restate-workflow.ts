import type { Durability, JSONValue, PendingToolCall } from "@junction/core";
import * as restate from "@restatedev/restate-sdk";
import { type ApprovalNotifier, PENDING_APPROVALS_STATE, restateDurability } from "./restate-durability.js";

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
    await ctx.promise<JSONValue>(signal.name).resolve(signal.value);
  },
);

/**
 * The `pending` handler of a workflow whose `run` uses {@link restateDurability}: the calls that
 * wait for a person, as the run published them (`[]` when none wait). A shared handler, served
 * while the run waits, on any worker of the deployment; {@link pendingApprovals} calls it.
 */
export const restatePendingHandler = restate.handlers.workflow.shared(
  async (ctx: restate.WorkflowSharedContext): Promise<PendingToolCall[]> =>
    (await ctx.get<PendingToolCall[]>(PENDING_APPROVALS_STATE)) ?? [],
);

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
      pending: restatePendingHandler,
      cancel: restateCancelHandler,
    },
    options: { ...options?.options, retryPolicy: options?.retryPolicy ?? promptRetryPolicy },
  });
}
