import type { HubEvent } from "../shared/api-types.js";

/** An event for every open page: the shared contract. */
export type { HubEvent } from "../shared/api-types.js";

/** A page listening on `GET /api/events`: where its events go, and how its stream ends. */
export interface HubPage {
  /** Sends one event, serialised and redacted. */
  send(data: string): void;
  /** Ends the page's stream (the playground is closing). */
  close(): void;
}

/** Fans events out to every page listening on `GET /api/events` and to in-process listeners. */
export class EventHub {
  readonly #pages = new Set<HubPage>();
  readonly #listeners = new Set<(event: HubEvent) => void>();
  readonly #redact: (text: string) => string;

  /** `redact` masks secrets in every event before anyone sees it. */
  constructor(options: { redact?: (text: string) => string } = {}) {
    this.#redact = options.redact ?? ((text) => text);
  }

  /** Adds a page's event stream; the function returned removes it. */
  attach(page: HubPage): () => void {
    this.#pages.add(page);
    return () => this.#pages.delete(page);
  }

  /** In-process listeners, such as the CLI. */
  listen(listener: (event: HubEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Sends an event, secrets masked, to every page and listener. */
  publish(event: HubEvent): void {
    const json = JSON.stringify(event);
    const redacted = this.#redact(json);
    for (const page of this.#pages) page.send(redacted);
    const shown = redacted === json ? event : (JSON.parse(redacted) as HubEvent);
    for (const listener of this.#listeners) listener(shown);
  }

  /** Ends every page's stream. */
  close(): void {
    for (const page of this.#pages) page.close();
    this.#pages.clear();
  }
}
