import type { Session } from "./mcp-session.js";
import { followTasks, type TaskFollower } from "./modern-task.js";

/**
 * The layers between the wire and the SDK client of one session, from the wire in:
 *
 * 1. **The transport**: stdio, or the lean Streamable HTTP transport with the SDK's transport inside
 *    it (who sends what, on which HTTP client and stream: the table in
 *    `streamable-http-transport.ts`). Made in `mcp-session.ts`.
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
 * Layers 1 and 3 are transports that wrap the one beneath them (each owns its inner transport's
 * handlers from its `start()`, which `connect()` calls) and exist before `connect()`. This
 * function adds 4 and then 2 once `connect()` is done, and returns the tasks follower of a
 * 2026-07-28 session. It is the only place that rewires the `onmessage` or `send` of a connected
 * session's transport.
 */
export function layerConnectedSession(
  session: Session,
  era: "modern" | "legacy" | undefined,
): TaskFollower | undefined {
  // The transport the client connected to: the tap (3), or the transport itself (1) without one.
  const tapped = session.client.transport;
  let follower: TaskFollower | undefined;
  // 4, between the client (5) and the tap: sends go through it, and answers reach the client through it.
  if (era === "modern" && tapped) {
    const tasks = followTasks(session.client, {
      deliver: tapped.onmessage,
      send: tapped.send.bind(tapped),
    });
    tapped.send = tasks.sent;
    tapped.onmessage = tasks.received;
    follower = tasks;
  }
  // 2, right above the wire (1): beneath the tap, or beneath the follower when there is no tap.
  const deliver = session.transport.onmessage;
  if (deliver) {
    session.transport.onmessage = (message, extra) => {
      if ("id" in message && !("method" in message)) queueMicrotask(() => deliver(message, extra));
      else deliver(message, extra);
    };
  }
  return follower;
}
