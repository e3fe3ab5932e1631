import { randomUUID } from "node:crypto";
import { type ElicitRequestParams, type ElicitResult, JunctionError } from "@junction/types";
import type { ElicitationRequest } from "../shared/api-types.js";
import type { EventHub } from "./event-hub.js";

interface Pending {
  server: string;
  request: ElicitationRequest;
  resolve(result: ElicitResult): void;
}

/**
 * How many requests one server may have waiting for the person (elicitations and sampling
 * approvals together); any further one is refused at once, with an error the server receives.
 */
export const MAXIMUM_PENDING_PER_SERVER = 3;

/**
 * Carries a server's `elicitation/create` request (and a sampling request's approval) to the
 * person: every open page (and the CLI) is told, the first answer wins. A URL-mode request is
 * only shown, never opened. Each server has at most {@link MAXIMUM_PENDING_PER_SERVER} waiting,
 * so a flooding server cannot pile up dialogs or memory.
 */
export class ElicitationBroker {
  readonly #pending = new Map<string, Pending>();
  readonly #hub: EventHub;

  constructor(hub: EventHub) {
    this.#hub = hub;
  }

  /**
   * Asks the person. Throws `tool-denied` (the server receives it as its request's error) when
   * the server already has {@link MAXIMUM_PENDING_PER_SERVER} requests waiting. `kind: "sampling"`
   * marks a sampling approval, whose `message` is everything the model would receive.
   */
  ask(server: string, params: ElicitRequestParams, kind?: "sampling"): Promise<ElicitResult> {
    const waiting = this.#waitingFor(server);
    if (waiting >= MAXIMUM_PENDING_PER_SERVER) {
      return Promise.reject(
        new JunctionError(
          "tool-denied",
          `Refused: server ${server} already has ${waiting} requests waiting for the person (at most ${MAXIMUM_PENDING_PER_SERVER}); ask again once they are answered.`,
        ),
      );
    }
    const id = randomUUID();
    const request: ElicitationRequest = {
      id,
      server,
      message: typeof params.message === "string" ? params.message : "",
      requestedSchema:
        params.mode === "url"
          ? { type: "object", properties: {}, url: typeof params.url === "string" ? params.url : "" }
          : params.requestedSchema,
      ...(kind ? { kind } : {}),
    };
    return new Promise<ElicitResult>((resolve) => {
      this.#pending.set(id, { server, request, resolve });
      this.#hub.publish({ type: "elicitation-request", ...request });
    });
  }

  /** The open requests, oldest first, for a page that connects after they were sent. */
  list(): ElicitationRequest[] {
    return [...this.#pending.values()].map((pending) => pending.request);
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
    for (const id of [...this.#pending.keys()]) this.#cancel(id);
  }

  /** Cancels the open requests of one server, for example when it is edited or removed. */
  cancelServer(server: string): void {
    for (const [id, pending] of [...this.#pending]) if (pending.server === server) this.#cancel(id);
  }

  #cancel(id: string): void {
    const pending = this.#pending.get(id);
    if (!pending) return;
    this.#pending.delete(id);
    pending.resolve({ action: "cancel" });
    this.#hub.publish({ type: "elicitation-closed", id });
  }

  #waitingFor(server: string): number {
    let count = 0;
    for (const pending of this.#pending.values()) if (pending.server === server) count++;
    return count;
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
