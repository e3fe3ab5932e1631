import type { Session } from "./mcp-session.js";
import { followTasks, type TaskFollower } from "./modern-task.js";

/**
 * The layers between the wire and the SDK client of one session, from the wire in:
 *
 * 1. **The transport**: stdio, or the lean Streamable HTTP transport with the SDK's transport inside
 *    it (who sends what: the table in `streamable-http-transport.ts`). Made in `mcp-session.ts`.
 * 2. **Responses one microtask late** (here): the SDK handles notifications a microtask late but
 *    responses at once, so a progress notification sent just before its result would find the
 *    request's handler gone; holding responses by one microtask keeps the server's order.
 * 3. **The tap** (`message-tap.ts`, only with the config's `onMessage` or `requestMeta`): sees every
 *    message both ways and adds the request `_meta` hook's keys. Put in place in `mcp-session.ts`,
 *    since the client connects to the tapped transport.
 * 4. **The tasks follower** (here, on 2026-07-28 only: `modern-task.ts`): declares the tasks
 *    extension on every request, holds back a `tools/call` answered with a task and follows the
 *    task to its end, beneath the client (whose v2 line refuses a task answer).
 * 5. **The SDK client**, whose `connect()` set the `onmessage` the layers above wrap.
 *
 * Layers 1 and 3 exist before `connect()`; this adds 2 and 4 once it is done, in that order, and
 * returns the tasks follower of a 2026-07-28 session. Nothing else rewires a session's transport.
 */
export function layerConnectedSession(
  session: Session,
  era: "modern" | "legacy" | undefined,
): TaskFollower | undefined {
  const tapped = session.client.transport;
  const follower = era === "modern" && tapped ? followTasks(session.client, tapped) : undefined;
  const deliver = session.transport.onmessage;
  if (deliver) {
    session.transport.onmessage = (message, extra) => {
      if ("id" in message && !("method" in message)) queueMicrotask(() => deliver(message, extra));
      else deliver(message, extra);
    };
  }
  return follower;
}
