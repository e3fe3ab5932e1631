import type { Durability, JSONValue } from "@junction/core";
import { TerminalError, TimeoutError, type WorkflowContext } from "@restatedev/restate-sdk";

/**
 * The durability port on Restate, for the workflow invocation whose context it is given: each
 * `step` is a `ctx.run` named by its key (journaled by the Restate server; a replay gets the
 * result, or the failure, without running it again), and each `waitForSignal` awaits the
 * workflow's durable promise of the signal's name, which {@link sendSignal} resolves through
 * the workflow's `signal` handler from any process. The run's id is the workflow's key.
 *
 * A step that throws is journaled as a failure (a `TerminalError` with the same message, and
 * the error's `code` in its metadata)
 * instead of being retried by Restate, so the run loop sees the failure, on the first run and
 * on every replay alike. A crash while a step runs is different: Restate retries the
 * invocation and the step's body runs again (at least once).
 *
 * @example
 * ```ts
 * const review = restate.workflow({
 *   name: "review",
 *   handlers: {
 *     run: async (ctx: restate.WorkflowContext, document: string) => {
 *       const durability = restateDurability(ctx);
 *       const draft = await durability.step("draft", () => writeDraft(document));
 *       return (await durability.waitForSignal<boolean>("approval:draft")) ? draft : null;
 *     },
 *     signal: restateSignalHandler,
 *   },
 * });
 * ```
 */
export function restateDurability(ctx: WorkflowContext): Durability {
  return {
    runId: ctx.key,
    step: <T extends JSONValue>(key: string, run: () => Promise<T>) =>
      ctx.run(key, async () => {
        try {
          return await run();
        } catch (error) {
          throw toTerminalError(error);
        }
      }),
    waitForSignal: async <T extends JSONValue>(name: string, options?: { timeoutMs?: number }) => {
      const signal = ctx.promise<T>(name).get();
      if (options?.timeoutMs === undefined) return signal;
      try {
        return await signal.orTimeout(options.timeoutMs);
      } catch (error) {
        if (error instanceof TimeoutError) return undefined;
        throw error;
      }
    },
  };
}

/** The failure as Restate journals it: the message, and a `code` (a `JunctionError`'s) as metadata. */
function toTerminalError(error: unknown): TerminalError {
  if (error instanceof TerminalError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  return new TerminalError(message, typeof code === "string" ? { metadata: { code } } : undefined);
}
