import { JunctionError } from "@junction/types";
import type { RequestOptions } from "@modelcontextprotocol/client";
import type { ListenStream } from "./mcp-listen.js";
import type { Session } from "./mcp-session.js";

/** What {@link subscribeResource} needs of the `MCP` it works for. */
export interface SubscribeContext {
  /** The listeners of each subscribed URI (shared with the notification handler and reconnects). */
  listeners: Map<string, Set<(uri: string) => void>>;
  /** The connection's `subscriptions/listen` stream (2026-07-28). */
  stream: ListenStream;
  serverName(): string;
  connected(): boolean;
  /** Whether `close()` was called: a pending unsubscribe then has nothing left to undo. */
  closed(): boolean;
  /** Runs one request on the connection, as `MCP` runs any other. */
  run(method: string, send: (session: Session, options: RequestOptions) => Promise<void>): Promise<void>;
}

/**
 * Subscribes to updates of a resource; returns the function that unsubscribes. The first
 * listener of a URI subscribes on the server: `resources/subscribe` on 2025-11-25; on
 * 2026-07-28, the URI joins the listen stream's `resourceSubscriptions` (the stream is reopened
 * with it), and a server that does not honour it is `mcp-capability-missing`. The last
 * listener gone unsubscribes the same way. The returned function's promise resolves once the
 * server was told; after (or during) `close()` it resolves without asking anything.
 */
export async function subscribeResource(
  context: SubscribeContext,
  uri: string,
  onUpdate: (uri: string) => void,
): Promise<() => Promise<void>> {
  const { listeners: all, stream } = context;
  let listeners = all.get(uri);
  if (!listeners) {
    await context.run("resources/subscribe", async (session, requestOptions) => {
      if (session.client.getProtocolEra() !== "modern") {
        await session.client.subscribeResource({ uri }, requestOptions);
        return;
      }
      all.set(uri, new Set());
      try {
        await stream.open(session);
      } catch (error) {
        all.delete(uri);
        throw error;
      }
      if (!stream.honored?.resourceSubscriptions?.includes(uri)) {
        all.delete(uri);
        // Reopening without the refused uri; the refusal is what we throw next.
        await stream.open(session).catch(() => undefined);
        throw new JunctionError(
          "mcp-capability-missing",
          `MCP server "${context.serverName()}" did not agree to send updates of ${JSON.stringify(uri)} on subscriptions/listen`,
        );
      }
    });
    listeners = all.get(uri) ?? new Set();
    all.set(uri, listeners);
  }
  listeners.add(onUpdate);
  let active = true;
  return async () => {
    if (!active) return;
    active = false;
    const current = all.get(uri);
    current?.delete(onUpdate);
    if (current && current.size === 0) {
      all.delete(uri);
      if (context.connected()) {
        try {
          await context.run("resources/unsubscribe", async (session, requestOptions) => {
            if (session.client.getProtocolEra() === "modern") await stream.open(session);
            else await session.client.unsubscribeResource({ uri }, requestOptions);
          });
        } catch (error) {
          // close() ended every subscription with the session: an unsubscribe it interrupted has
          // nothing left to do, and one nobody awaits must not become an unhandled rejection.
          if (!context.closed()) throw error;
        }
      }
    }
  };
}
