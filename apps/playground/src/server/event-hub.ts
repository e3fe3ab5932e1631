import type { ServerResponse } from "node:http";
import type { HubEvent } from "../shared/api-types.js";

/** An event for every open page: the shared contract. */
export type { HubEvent } from "../shared/api-types.js";

/** Fans events out to every page listening on `GET /api/events` (server-sent events). */
export class EventHub {
  readonly #clients = new Set<ServerResponse>();
  readonly #listeners = new Set<(event: HubEvent) => void>();
  readonly #redact: (text: string) => string;

  /** `redact` masks secrets in every event before anyone sees it. */
  constructor(options: { redact?: (text: string) => string } = {}) {
    this.#redact = options.redact ?? ((text) => text);
  }

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
    const json = JSON.stringify(event);
    const redacted = this.#redact(json);
    const frame = `data: ${redacted}\n\n`;
    for (const client of this.#clients) client.write(frame);
    const shown = redacted === json ? event : (JSON.parse(redacted) as HubEvent);
    for (const listener of this.#listeners) listener(shown);
  }

  close(): void {
    for (const client of this.#clients) client.end();
    this.#clients.clear();
  }
}
