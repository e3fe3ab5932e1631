import type { JunctionError, Warning } from "@junction/types";

/**
 * Something an `MCP` connection could not keep up that did not stop it, as
 * {@link MCPCommon.onWarning} sees it. After a reconnect:
 *
 * - `resource-subscription-lost`: the new session refused `resources/subscribe` for `uri`
 *   (2025-11-25), or its `subscriptions/listen` stream left `uri` out or was refused
 *   (2026-07-28); its listeners were removed and get no more updates. Call
 *   `MCP.subscribe(uri, …)` again to retry.
 * - `log-level-not-restored` (2025-11-25): the new session refused `logging/setLevel`; the server
 *   logs at its own default level until `MCP.setLogLevel()` is called again (each reconnect
 *   retries it too).
 * - `tools-changed-on-reconnect`: the new session lists other tools than the lost one did
 *   (`added`, `removed`); `onToolsChanged` listeners were told, and an Agent offers the new list
 *   on its next request.
 * - `tools-empty-after-reconnect`: the lost session listed tools, the new one lists none, even
 *   after listing again a few times with the reconnect backoff (a server still starting up).
 */
export interface MCPWarning extends Warning {
  code:
    | "resource-subscription-lost"
    | "log-level-not-restored"
    | "tools-changed-on-reconnect"
    | "tools-empty-after-reconnect";
  /** The connection's name (`MCP.name`). */
  server: string;
  /** The resource whose subscription was lost (`resource-subscription-lost`). */
  uri?: string;
  /** The level that was not restored (`log-level-not-restored`). */
  level?: string;
  /** Tools the new session lists and the lost one did not (`tools-changed-on-reconnect`). */
  added?: string[];
  /** Tools the lost session listed and the new one does not (`tools-changed-on-reconnect`). */
  removed?: string[];
  /** What the server answered, as the request would have rejected with it (the two above). */
  cause?: JunctionError;
  /** Says all of the above, for a log line. */
  message: string;
}

/**
 * Hands a warning to `listener`, else emits it as a Node.js process warning (`process.emitWarning`
 * with `type`; `console.warn` where there is no `process`), so it is never silent. What the
 * listener throws reaches the caller.
 */
export function reportWarning<W extends Warning>(
  warning: W,
  listener: ((warning: W) => void) | undefined,
  type: string,
): void {
  if (listener) {
    listener(warning);
    return;
  }
  const process = (
    globalThis as {
      process?: { emitWarning?: (message: string, options: { type: string; code: string }) => void };
    }
  ).process;
  if (process?.emitWarning) process.emitWarning(warning.message, { type, code: warning.code });
  else console.warn(warning.message);
}
