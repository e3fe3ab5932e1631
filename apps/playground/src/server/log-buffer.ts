import type { HubEvent } from "./event-hub.js";

/** One log message a server sent (`notifications/message`), as the page shows it. */
export interface ServerLogEntry {
  at: string;
  level: string;
  logger?: string;
  data: unknown;
}

/** How many messages are kept per server. */
export const KEPT_LOG_MESSAGES = 200;
/** How many messages one push to the page carries at most. */
export const PUSHED_LOG_MESSAGES = 50;
/** How often, at most, a server's new messages are pushed to the page. */
export const LOG_PUSH_INTERVAL_MS = 250;

interface ServerLog {
  name: string;
  entries: ServerLogEntry[];
  /** Older messages dropped from `entries`. */
  dropped: number;
  /** Messages waiting to be pushed, and how many were received since the last push. */
  pending: ServerLogEntry[];
  received: number;
  timer?: ReturnType<typeof setTimeout>;
}

/**
 * Keeps the last {@link KEPT_LOG_MESSAGES} log messages of each server and pushes new ones to the
 * page in batches, at most every {@link LOG_PUSH_INTERVAL_MS} and {@link PUSHED_LOG_MESSAGES} at a
 * time, saying how many were skipped: a server flooding its log cannot flood the page.
 */
export class LogBuffer {
  readonly #logs = new Map<string, ServerLog>();
  readonly #publish: (event: Extract<HubEvent, { type: "server-log" }>) => void;

  constructor(options: { publish(event: Extract<HubEvent, { type: "server-log" }>): void }) {
    this.#publish = options.publish;
  }

  add(id: string, name: string, message: Omit<ServerLogEntry, "at">): void {
    let log = this.#logs.get(id);
    if (!log) {
      log = { name, entries: [], dropped: 0, pending: [], received: 0 };
      this.#logs.set(id, log);
    }
    const entry = { at: new Date().toISOString(), ...message };
    log.entries.push(entry);
    if (log.entries.length > KEPT_LOG_MESSAGES) {
      log.dropped += log.entries.length - KEPT_LOG_MESSAGES;
      log.entries.splice(0, log.entries.length - KEPT_LOG_MESSAGES);
    }
    log.received++;
    log.pending.push(entry);
    if (log.pending.length > PUSHED_LOG_MESSAGES) log.pending.shift();
    if (!log.timer) log.timer = setTimeout(() => this.#flush(log), LOG_PUSH_INTERVAL_MS);
  }

  get(id: string): { entries: ServerLogEntry[]; dropped: number } {
    const log = this.#logs.get(id);
    return log ? { entries: [...log.entries], dropped: log.dropped } : { entries: [], dropped: 0 };
  }

  delete(id: string): void {
    const log = this.#logs.get(id);
    if (log?.timer) clearTimeout(log.timer);
    this.#logs.delete(id);
  }

  /** Stops pending pushes, for shutdown. */
  close(): void {
    for (const log of this.#logs.values()) if (log.timer) clearTimeout(log.timer);
  }

  #flush(log: ServerLog): void {
    log.timer = undefined;
    const entries = log.pending.splice(0);
    const skipped = log.received - entries.length;
    log.received = 0;
    if (entries.length > 0) this.#publish({ type: "server-log", server: log.name, entries, skipped });
  }
}
