import { HttpCallError, rpc } from "@restatedev/restate-sdk-clients";

/** What the ingress answers for a workflow key that was never submitted (or whose run was purged). */
export const NOT_FOUND = 404;

/** What the ingress answers for the output of a workflow that was cancelled. */
export const CANCELLED = 409;

/** What the ingress says of a run's output: going on, ended with a result, cancelled, failed, or no such run. */
export type RunOutput =
  | { readonly kind: "going" }
  | { readonly kind: "ended"; readonly result: unknown }
  | { readonly kind: "cancelled" }
  | { readonly kind: "failed"; readonly message: string }
  | { readonly kind: "unknown" };

/** A workflow client's `workflowOutput`, with the options it takes. */
export interface OutputReader {
  workflowOutput(
    opts?: ReturnType<typeof rpc.opts<void, unknown>>,
  ): Promise<{ ready: boolean; result?: unknown }>;
}

/**
 * The run's output as the ingress answers it (`workflowOutput`), read once; `signal` stops the
 * request. The one place that reads the ingress's statuses for a run.
 */
export async function readRunOutput(run: OutputReader, signal?: AbortSignal): Promise<RunOutput> {
  try {
    const now = await run.workflowOutput(signal ? rpc.opts<void, unknown>({ signal }) : undefined);
    return now.ready ? { kind: "ended", result: now.result } : { kind: "going" };
  } catch (error) {
    if (!(error instanceof HttpCallError)) throw error;
    if (error.status === NOT_FOUND) return { kind: "unknown" };
    if (error.status === CANCELLED) return { kind: "cancelled" };
    return { kind: "failed", message: terminalMessage(error) };
  }
}

/** The message of the terminal error a run failed with, as the ingress answers it (`{ message }`). */
function terminalMessage(error: HttpCallError): string {
  try {
    const body = JSON.parse(error.responseText) as { message?: unknown };
    if (typeof body.message === "string") return body.message;
  } catch {
    // Not JSON: the text as it came.
  }
  return error.responseText || `The run failed (HTTP ${error.status}).`;
}
