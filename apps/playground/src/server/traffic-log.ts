import type { MCPWireMessage } from "@junction/mcp-client";
import type { StderrLog, TrafficEntry, TrafficLog } from "../shared/api-types.js";

/** How many messages are kept per server. */
export const KEPT_TRAFFIC_MESSAGES = 500;
/** How much of one message (as JSON) is kept, in characters. */
export const KEPT_MESSAGE_CHARS = 8 * 1024;
/** How many requests may wait for their response before the oldest is forgotten. */
const PENDING_REQUESTS = 1000;
/** How much of a server's stderr is kept, in characters. */
export const KEPT_STDERR_CHARS = 64 * 1024;

/**
 * The JSON-RPC traffic of one server, bounded: the last {@link KEPT_TRAFFIC_MESSAGES} messages,
 * each cut to {@link KEPT_MESSAGE_CHARS} characters and masked by `redact` before it is kept, and
 * each response timed against its request. Everything in it came from, or went to, an untrusted
 * server: it is kept and served as text only.
 */
export class TrafficRecorder {
  readonly #entries: TrafficEntry[] = [];
  readonly #pending = new Map<string, { at: number; method: string }>();
  readonly #redact: (text: string) => string;
  #seq = 0;
  #dropped = 0;

  constructor(redact: (text: string) => string) {
    this.#redact = redact;
  }

  /** Records one message as the client saw it cross. */
  record({ direction, message, at }: MCPWireMessage): void {
    let json: string;
    try {
      json = JSON.stringify(message) ?? "null";
    } catch {
      json = '"[a message that is not JSON]"';
    }
    const masked = this.#redact(json);
    const truncated = masked.length > KEPT_MESSAGE_CHARS;
    const entry: TrafficEntry = {
      seq: ++this.#seq,
      direction,
      at,
      kind: "notification",
      text: truncated ? masked.slice(0, KEPT_MESSAGE_CHARS) : masked,
      size: json.length,
      truncated,
    };
    const record = message as Record<string, unknown>;
    const id = typeof record.id === "string" || typeof record.id === "number" ? record.id : undefined;
    const method = typeof record.method === "string" ? record.method.slice(0, 200) : undefined;
    if (method !== undefined) {
      entry.method = method;
      if (id !== undefined) {
        entry.kind = "request";
        entry.id = id;
        // A new session numbers its requests from the start again.
        if (method === "initialize") this.#pending.clear();
        this.#pending.set(pendingKey(direction, id), { at, method });
        if (this.#pending.size > PENDING_REQUESTS) {
          this.#pending.delete(this.#pending.keys().next().value as string);
        }
      }
    } else {
      entry.kind = "error" in record ? "error" : "response";
      if (id !== undefined) {
        entry.id = id;
        // A response travels the other way from its request.
        const key = pendingKey(direction === "in" ? "out" : "in", id);
        const request = this.#pending.get(key);
        if (request) {
          this.#pending.delete(key);
          entry.method = request.method;
          entry.durationMs = Math.max(0, Math.round((at - request.at) * 10) / 10);
        }
      }
    }
    this.#entries.push(entry);
    if (this.#entries.length > KEPT_TRAFFIC_MESSAGES) {
      this.#dropped += this.#entries.length - KEPT_TRAFFIC_MESSAGES;
      this.#entries.splice(0, this.#entries.length - KEPT_TRAFFIC_MESSAGES);
    }
  }

  /** The kept messages after `since` (a `seq`), oldest first, and how many were dropped in all. */
  read(since = 0): TrafficLog {
    return { entries: this.#entries.filter((entry) => entry.seq > since), dropped: this.#dropped };
  }
}

function pendingKey(direction: "in" | "out", id: string | number): string {
  return `${direction}:${typeof id}:${id}`;
}

/** The newest {@link KEPT_STDERR_CHARS} characters a server wrote to stderr, across restarts. */
export class StderrRecorder {
  #text = "";
  #dropped = 0;

  add(chunk: string): void {
    this.#text += chunk;
    if (this.#text.length > KEPT_STDERR_CHARS) {
      const cut = this.#text.length - KEPT_STDERR_CHARS;
      this.#dropped += cut;
      this.#text = this.#text.slice(cut);
    }
  }

  /** What is kept, masked by `redact` (secrets may appear in a server's own messages). */
  read(redact: (text: string) => string): StderrLog {
    return { text: redact(this.#text), dropped: this.#dropped };
  }
}
