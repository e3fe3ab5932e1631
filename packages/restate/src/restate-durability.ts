import type { Durability, JSONValue } from "@junction/core";
import { errorMessage } from "@junction/types";
import { TerminalError, TimeoutError, type WorkflowContext } from "@restatedev/restate-sdk";
import { createRestateDriver } from "./restate-driver.js";

/**
 * The durability port on Restate, for the workflow invocation whose context it is given: each
 * `step` is a `ctx.run` named by its key (journaled by the Restate server; a replay gets the
 * result, or the failure, without running it again), and each `waitForSignal` awaits the
 * workflow's durable promise of the signal's name, which {@link sendSignal} resolves through
 * the workflow's `signal` handler from any process. The run's id is the workflow's key.
 *
 * Steps and waits may be awaited concurrently (`Promise.all`), as the run loop does with the
 * tool calls of one model step: one driver awaits them all through a `RestatePromise.race`,
 * which the Restate SDK needs (two of its promises awaited at once fail). An operation started
 * while the others are all waiting for signals, after an await that is not itself a step (I/O
 * outside the journal), starts only when one of them settles: start what runs alongside an
 * approval wait without such awaits in between.
 *
 * Make one port per invocation, and await the invocation's Restate operations only through
 * it.
 *
 * A step that throws is journaled as a failure (a `TerminalError` with the same message, and
 * the error's `code` in its metadata) instead of being retried by Restate, so the run
 * sees the failure, on the first run and on every replay alike. The Agent's run loop does not
 * rely on it: it journals its own steps' failures as data and rebuilds their class (a
 * `ProviderError` with its status) on a replay. A crash while a step runs is
 * different: Restate retries the invocation and the step's body runs again (at least once).
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
  const driven = createRestateDriver();
  return {
    runId: ctx.key,
    // Restate matches a replay's operations by the order they started.
    ordered: true,
    step: <T extends JSONValue>(key: string, run: () => Promise<T>) =>
      driven(
        ctx.run(key, async () => {
          try {
            return await run();
          } catch (error) {
            throw toTerminalError(error);
          }
        }),
      ),
    waitForSignal: <T extends JSONValue>(name: string, options?: { timeoutMs?: number }) => {
      const signal = ctx.promise<T>(name).get();
      if (options?.timeoutMs === undefined) return driven(signal);
      return driven(
        signal.orTimeout(options.timeoutMs).map((value?: T, failure?: TerminalError) => {
          if (failure instanceof TimeoutError) return undefined;
          if (failure !== undefined) throw failure;
          return value;
        }),
      );
    },
  };
}

/** The failure as Restate journals it: the message, and a `code` (a `JunctionError`'s) as metadata. */
function toTerminalError(error: unknown): TerminalError {
  if (error instanceof TerminalError) return error;
  const message = errorMessage(error);
  const code = (error as { code?: unknown } | null)?.code;
  return new TerminalError(message, typeof code === "string" ? { metadata: { code } } : undefined);
}
