import { randomUUID } from "node:crypto";
import { type ElicitRequestParams, type ElicitResult, JunctionError } from "@junction/types";
import type { EventHub } from "./event-hub.js";

interface Pending {
  server: string;
  params: ElicitRequestParams;
  resolve(result: ElicitResult): void;
}

/**
 * Carries a server's `elicitation/create` request to the person: every open page (and the
 * CLI) is told, the first answer wins. A URL-mode request is only shown, never opened.
 */
export class ElicitationBroker {
  readonly #pending = new Map<string, Pending>();
  readonly #hub: EventHub;

  constructor(hub: EventHub) {
    this.#hub = hub;
  }

  ask(server: string, params: ElicitRequestParams): Promise<ElicitResult> {
    const id = randomUUID();
    return new Promise<ElicitResult>((resolve) => {
      this.#pending.set(id, { server, params, resolve });
      this.#hub.publish({
        type: "elicitation-request",
        id,
        server,
        message: typeof params.message === "string" ? params.message : "",
        requestedSchema:
          params.mode === "url"
            ? { type: "object", properties: {}, url: typeof params.url === "string" ? params.url : "" }
            : params.requestedSchema,
      });
    });
  }

  /** The open requests, for a page that connects after they were sent. */
  list(): { id: string; server: string; message: string; requestedSchema: unknown }[] {
    return [...this.#pending].map(([id, pending]) => ({
      id,
      server: pending.server,
      message: pending.params.message,
      requestedSchema:
        pending.params.mode === "url" ? { type: "object", properties: {} } : pending.params.requestedSchema,
    }));
  }

  /** Answers a request. Throws `invalid-argument` for an unknown id or a malformed answer. */
  answer(id: string, answer: unknown): void {
    const pending = this.#pending.get(id);
    if (!pending) throw new JunctionError("invalid-argument", `No open elicitation request with id ${id}.`);
    const result = parseAnswer(answer);
    this.#pending.delete(id);
    this.#hub.publish({ type: "elicitation-closed", id });
    pending.resolve(result);
  }

  /** Cancels every open request, for example on shutdown. */
  cancelAll(): void {
    for (const [id, pending] of this.#pending) {
      pending.resolve({ action: "cancel" });
      this.#hub.publish({ type: "elicitation-closed", id });
    }
    this.#pending.clear();
  }
}

function parseAnswer(answer: unknown): ElicitResult {
  if (typeof answer !== "object" || answer === null) {
    throw new JunctionError("invalid-argument", "An elicitation answer must be an object with an action.");
  }
  const { action, content } = answer as { action?: unknown; content?: unknown };
  if (action !== "accept" && action !== "decline" && action !== "cancel") {
    throw new JunctionError(
      "invalid-argument",
      'An elicitation answer\'s action must be "accept", "decline" or "cancel".',
    );
  }
  if (action !== "accept") return { action };
  if (typeof content !== "object" || content === null || Array.isArray(content)) {
    throw new JunctionError(
      "invalid-argument",
      "An accepted elicitation answer needs its content as an object.",
    );
  }
  const clean: Record<string, string | number | boolean | string[]> = {};
  for (const [key, value] of Object.entries(content)) {
    if (
      typeof value === "string" ||
      typeof value === "number" ||
      typeof value === "boolean" ||
      (Array.isArray(value) && value.every((item) => typeof item === "string"))
    ) {
      clean[key] = value;
    } else {
      throw new JunctionError(
        "invalid-argument",
        `The elicitation field ${key} must be a string, number, boolean or list of strings.`,
      );
    }
  }
  return { action, content: clean };
}
