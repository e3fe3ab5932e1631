import { type McpServer, ProtocolError, ProtocolErrorCode, UriTemplate } from "@modelcontextprotocol/server";
import type { MCPServerResource, MCPServerResourceTemplate } from "./served-types.js";

// Resource subscriptions (`resources/subscribe`, 2025-06-18 to 2025-11-25): which connection
// watches which URI, and `notifications/resources/updated` to those only. A subscription lives
// with the SDK server instance it was made on: one per stdio connection and per 2025-11-25 HTTP
// session, so it ends when that connection or session closes.

/** The subscriptions of one `MCPServer`, across its connections and sessions. */
export class ResourceSubscriptions {
  readonly #uris: Set<string>;
  readonly #templates: UriTemplate[];
  /** The SDK server instances (connections, sessions) subscribed to each URI. */
  readonly #subscribers = new Map<string, Set<McpServer>>();

  constructor(resources: MCPServerResource[], templates: MCPServerResourceTemplate[]) {
    this.#uris = new Set(resources.filter((resource) => resource.subscribe).map((resource) => resource.uri));
    this.#templates = templates
      .filter((template) => template.subscribe)
      .map((template) => new UriTemplate(template.uriTemplate));
  }

  /** Whether any resource can be subscribed to (the server then declares `resources.subscribe`). */
  get enabled(): boolean {
    return this.#uris.size > 0 || this.#templates.length > 0;
  }

  /** Answers `resources/subscribe` and `resources/unsubscribe` on one SDK server instance. */
  serve(server: McpServer): void {
    server.server.setRequestHandler("resources/subscribe", async (request) => {
      const uri = this.#subscribable(request.params.uri);
      let subscribers = this.#subscribers.get(uri);
      if (!subscribers) {
        subscribers = new Set();
        this.#subscribers.set(uri, subscribers);
      }
      subscribers.add(server);
      return {};
    });
    server.server.setRequestHandler("resources/unsubscribe", async (request) => {
      this.#drop(server, request.params.uri);
      return {};
    });
    const closed = server.server.onclose;
    server.server.onclose = () => {
      for (const uri of [...this.#subscribers.keys()]) this.#drop(server, uri);
      closed?.();
    };
  }

  /**
   * Sends `notifications/resources/updated` for `uri` to the connections subscribed to it;
   * resolves with how many it reached. A connection that cannot be written to any more is dropped.
   */
  async updated(uri: string): Promise<number> {
    const subscribers = [...(this.#subscribers.get(uri) ?? [])];
    const sent = await Promise.all(
      subscribers.map((server) =>
        server.server.sendResourceUpdated({ uri }).then(
          () => true,
          // A closed connection's subscription ends with it.
          () => {
            this.#drop(server, uri);
            return false;
          },
        ),
      ),
    );
    return sent.filter(Boolean).length;
  }

  #subscribable(uri: unknown): string {
    if (
      typeof uri === "string" &&
      (this.#uris.has(uri) || this.#templates.some((template) => template.match(uri) !== null))
    ) {
      return uri;
    }
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `resources/subscribe: ${JSON.stringify(uri)} is no resource this server lets clients subscribe to (a resource or template with \`subscribe: true\`).`,
      { uri },
    );
  }

  #drop(server: McpServer, uri: string): void {
    const subscribers = this.#subscribers.get(uri);
    subscribers?.delete(server);
    if (subscribers?.size === 0) this.#subscribers.delete(uri);
  }
}
