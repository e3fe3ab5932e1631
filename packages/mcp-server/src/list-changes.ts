import { InMemoryServerEventBus, type McpServer, type ServerEventBus } from "@modelcontextprotocol/server";

// Telling clients that a list changed (`notifications/{tools,prompts,resources}/list_changed`):
// to every 2025 session and connection (the SDK server instances of the legacy era), and on the
// 2026-07-28 `subscriptions/listen` streams of the server's HTTP handlers (the SDK's event bus,
// which sends each stream only what it asked for).

/** The lists a server tells its clients about. */
export type MCPListKind = "tools" | "prompts" | "resources";

/** The connections one `MCPServer` can tell about changes. */
export class ListChanges {
  /** What the 2026-07-28 `subscriptions/listen` streams subscribe to (passed to `createMcpHandler`). */
  readonly bus: ServerEventBus = new InMemoryServerEventBus();
  /** The 2025 sessions and connections open now. */
  readonly #connected = new Set<McpServer>();

  /** Keeps a 2025 session's or connection's SDK server instance until it closes. */
  track(server: McpServer): void {
    this.#connected.add(server);
    const closed = server.server.onclose;
    server.server.onclose = () => {
      this.#connected.delete(server);
      closed?.();
    };
  }

  /** Tells every client that `list` changed; resolves once the 2025 connections were written to. */
  async changed(list: MCPListKind): Promise<void> {
    this.bus.publish({ kind: `${list}_list_changed` });
    await Promise.all(
      [...this.#connected].map((server) => {
        // An instance that was never connected (a `server/discover` probe the client left for
        // `initialize`) or has gone cannot be told: it is forgotten.
        if (!server.isConnected()) {
          this.#connected.delete(server);
          return undefined;
        }
        return server.server
          .notification({ method: `notifications/${list}/list_changed` })
          .catch(() => this.#connected.delete(server));
      }),
    );
  }
}
