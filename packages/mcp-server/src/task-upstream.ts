import type { TaskQuestionMethod } from "./pass-through.js";

// What a task's run asks while it goes (elicitation, sampling: an MCP server an agent uses, or
// a tool's own `servedContext()` questions):
// each request waits here, in the process where its upstream call is in flight, until the task's
// client answers it (a `tasks/update` on 2026-07-28, a request related to `tasks/result` on
// 2025-11-25). Not persisted: the upstream call it belongs to lives only in this process.

/** The prefix of an upstream request's input-request key: `upstream:<n>`. */
const KEY_PREFIX = "upstream:";

/** One upstream request waiting for the task's client. */
export interface UpstreamRequest {
  /** Its input-request key, unique within the task. */
  key: string;
  method: TaskQuestionMethod;
  params: Record<string, unknown>;
  /** Whether a 2025 `tasks/result` is asking the client for it now. */
  asked: boolean;
}

interface Waiting extends UpstreamRequest {
  resolve(answer: unknown): void;
  reject(error: unknown): void;
}

/** The upstream requests of one task's run, waiting for its client. */
export class UpstreamRequests {
  readonly #waiting = new Map<string, Waiting>();
  #count = 0;

  /** How many wait. */
  get size(): number {
    return this.#waiting.size;
  }

  /**
   * Files a request under `key` (default `upstream:<n>`); resolves with the client's answer once
   * one comes under its key.
   */
  add(method: TaskQuestionMethod, params: Record<string, unknown>, key?: string): Promise<unknown> {
    this.#count += 1;
    key ??= `${KEY_PREFIX}${this.#count}`;
    return new Promise((resolve, reject) => {
      this.#waiting.set(key, { key, method, params, asked: false, resolve, reject });
    });
  }

  /** The requests waiting, in the order they came. */
  list(): UpstreamRequest[] {
    return [...this.#waiting.values()];
  }

  /**
   * Hands answers to the requests waiting under their keys; other keys are ignored (a client
   * cannot answer what it was not asked). Returns how many were answered.
   */
  answer(responses: Record<string, unknown>): number {
    let answered = 0;
    for (const [key, waiting] of this.#waiting) {
      if (!Object.hasOwn(responses, key)) continue;
      this.#waiting.delete(key);
      waiting.resolve(responses[key]);
      answered += 1;
    }
    return answered;
  }

  /** Fails one request (the client could not be asked): its upstream server gets the error. */
  fail(key: string, error: unknown): void {
    const waiting = this.#waiting.get(key);
    if (!waiting) return;
    this.#waiting.delete(key);
    waiting.reject(error);
  }

  /** Gives the request back to be asked again (the `tasks/result` asking it went away). */
  release(key: string): void {
    const waiting = this.#waiting.get(key);
    if (waiting) waiting.asked = false;
  }

  /** Fails every request waiting (the run ended or was cancelled). */
  failAll(error: unknown): void {
    for (const waiting of this.#waiting.values()) waiting.reject(error);
    this.#waiting.clear();
  }
}
