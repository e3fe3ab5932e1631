import type { ServerResponse } from "node:http";

/** An event for every open page: server status, elicitation requests. */
export type HubEvent =
  | { type: "servers-changed" }
  | {
      type: "elicitation-request";
      id: string;
      server: string;
      message: string;
      requestedSchema: unknown;
    }
  | { type: "elicitation-closed"; id: string }
  | { type: "server-log"; server: string; level: string; data: unknown };

/** Fans events out to every page listening on `GET /api/events` (server-sent events). */
export class EventHub {
  readonly #clients = new Set<ServerResponse>();
  readonly #listeners = new Set<(event: HubEvent) => void>();

  attach(response: ServerResponse): void {
    response.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      connection: "keep-alive",
    });
    response.write(": connected\n\n");
    this.#clients.add(response);
    response.on("close", () => this.#clients.delete(response));
  }

  /** In-process listeners, such as the CLI. */
  listen(listener: (event: HubEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  get pageCount(): number {
    return this.#clients.size;
  }

  publish(event: HubEvent): void {
    const frame = `data: ${JSON.stringify(event)}\n\n`;
    for (const client of this.#clients) client.write(frame);
    for (const listener of this.#listeners) listener(event);
  }

  close(): void {
    for (const client of this.#clients) client.end();
    this.#clients.clear();
  }
}
