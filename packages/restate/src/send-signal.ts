import type { JSONValue } from "@junction/core";
import { type Ingress, rpc } from "@restatedev/restate-sdk-clients";
import type { SignalRequest } from "./restate-workflow.js";

/** Options of {@link sendSignal}. */
export interface SendSignalOptions {
  /** The Restate ingress: `clients.connect({ url: "http://localhost:8080" })`, from any process. */
  readonly ingress: Ingress;
  /** The workflow's name (its service name), as given to `restateWorkflow`. */
  readonly workflow: string;
  /** The run's id: the workflow key the run was submitted with. */
  readonly runId: string;
  /**
   * The signal's name: an Agent's approval waits for `approval:<step>:<callId>` (answer it with
   * `answerApproval` and an item of `pendingApprovals`, which names it and binds the answer to
   * the call as listed: an approval sent here without the call's digests is taken as a denial,
   * with a `run-state-mismatch` warning); a function of your own names its own signals.
   */
  readonly name: string;
  /** The signal's value, for example `{ approved: true }`. */
  readonly value: JSONValue;
  /**
   * When `sendSignal` returns:
   * - `"accepted"`: once the Restate server has stored the signal. The workflow's `signal`
   *   handler runs on a worker, so with no worker running it runs when one is back; the caller
   *   does not wait for that, and does not learn when it fails.
   * - `"resolved"`: once the `signal` handler has resolved the run's promise; this needs a
   *   worker, and rejects when the promise was already resolved.
   * @default "accepted"
   */
  readonly until?: "accepted" | "resolved";
  /**
   * Makes a retried send one send: Restate answers a repeated call with the same key with the
   * first call's outcome instead of running the handler again (which would fail on a resolved
   * promise).
   * @default none
   */
  readonly idempotencyKey?: string;
}

type SignalHandlers = { signal: (ctx: unknown, request: SignalRequest) => Promise<void> };

/**
 * Sends the signal `name` with `value` to the run `runId` through the Restate ingress, from
 * any process, with or without a worker running: the workflow's `signal` handler resolves the
 * run's durable promise, which the Restate server keeps until the run waits for it (a signal
 * sent before the wait, or before the run was submitted, is kept too).
 *
 * @example
 * ```ts
 * const ingress = clients.connect({ url: "http://localhost:8080" });
 * await sendSignal({ ingress, workflow: "review", runId: "review-42", name: "approval:draft", value: { approved: true } });
 * ```
 */
export async function sendSignal(options: SendSignalOptions): Promise<void> {
  const request: SignalRequest = { name: options.name, value: options.value };
  const target = [{ name: options.workflow }, options.runId] as const;
  if (options.until === "resolved") {
    const client = options.ingress.workflowClient<SignalHandlers>(...target);
    await client.signal(request, rpc.opts({ idempotencyKey: options.idempotencyKey }));
    return;
  }
  // A workflow's shared handler is addressed as a virtual object's is: by service, key, handler.
  const client = options.ingress.objectSendClient<SignalHandlers>(...target);
  await client.signal(request, rpc.sendOpts({ idempotencyKey: options.idempotencyKey }));
}
