import type { Durability, JSONValue } from "./durability.js";

/**
 * A durable engine's port as one run sees it, with the journal entries that run read or wrote
 * kept by key: the engine keeps the run's journal, and this is the part of it a stopped run's
 * `RunState` carries (so a run on an engine that stops when its `approvalTimeoutMs` runs out
 * can be resumed from its state like any other). Everything else is the engine's own port.
 */
export class JournalRecorder implements Durability {
  readonly runId: string;
  readonly ordered?: boolean;
  /** The entries the run got back from the engine (first run or replay), by key: plain JSON. */
  readonly journal: Record<string, JSONValue> = {};
  readonly receivedSignal?: Durability["receivedSignal"];
  readonly deliverSignal?: Durability["deliverSignal"];
  readonly publishPending?: Durability["publishPending"];
  readonly #port: Durability;

  constructor(port: Durability) {
    this.#port = port;
    this.runId = port.runId;
    if (port.ordered !== undefined) this.ordered = port.ordered;
    // Only what the port has: the loop reads an omitted method as "the engine cannot".
    if (port.receivedSignal) this.receivedSignal = port.receivedSignal.bind(port);
    if (port.deliverSignal) this.deliverSignal = port.deliverSignal.bind(port);
    if (port.publishPending) this.publishPending = port.publishPending.bind(port);
  }

  async step<T extends JSONValue>(key: string, run: () => Promise<T>): Promise<T> {
    const value = await this.#port.step(key, run);
    this.journal[key] = value;
    return value;
  }

  waitForSignal<T extends JSONValue>(name: string, options?: { timeoutMs?: number }): Promise<T | undefined> {
    return this.#port.waitForSignal<T>(name, options);
  }
}
