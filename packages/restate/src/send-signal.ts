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
  /** The signal's name, for example `approval:<callId>`. */
  readonly name: string;
  /** The signal's value, for example `{ approved: true }`. */
  readonly value: JSONValue;
  /**
   * Makes a retried send one send: Restate answers a repeated call with the same key with the
   * first call's outcome instead of resolving the promise again (which would fail).
   * @default none
   */
  readonly idempotencyKey?: string;
}

/**
 * Sends the signal `name` with `value` to the run `runId` through the Restate ingress, from
 * any process: the workflow's `signal` handler resolves the run's durable promise, which the
 * Restate server keeps whether the run's worker is waiting, down, or not yet at the wait.
 *
 * @example
 * ```ts
 * const ingress = clients.connect({ url: "http://localhost:8080" });
 * await sendSignal({ ingress, workflow: "review", runId: "review-42", name: "approval:draft", value: { approved: true } });
 * ```
 */
export async function sendSignal(options: SendSignalOptions): Promise<void> {
  const request: SignalRequest = { name: options.name, value: options.value };
  const client = options.ingress.workflowClient<{
    signal: (ctx: unknown, request: SignalRequest) => Promise<void>;
  }>({ name: options.workflow }, options.runId);
  await client.signal(request, rpc.opts({ idempotencyKey: options.idempotencyKey }));
}
