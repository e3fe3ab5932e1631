import type { ServedCall, ServedClient } from "../shared/api-types.js";

/** The longest client name, version or detail kept: what a client sends is untrusted. */
const maximumText = 200;
const maximumClients = 50;
const maximumCalls = 200;

/** A client's text as it is kept: a string, control characters removed, at most 200 characters. */
export function clientText(value: unknown, fallback: string): string {
  if (typeof value !== "string") return fallback;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
  const cleaned = value.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, "");
  if (cleaned.length === 0) return fallback;
  return cleaned.length > maximumText ? `${cleaned.slice(0, maximumText - 1)}…` : cleaned;
}

/** What the endpoint learnt of one HTTP request before it was handled. */
export interface ObservedRequest {
  /** The client's key: its session id, `stateless:<name>@<version>`, or "unknown". */
  session: string;
  /** Set for an `initialize` request: the client's info, kept once the response names the session. */
  initialize?: { name: string; version: string; protocolVersion: string | null };
}

/**
 * The endpoint's record of its clients and their calls, bounded (50 clients, 200 calls, the
 * oldest dropped). Plain data in, plain data out: the HTTP wrapper feeds it what it read of
 * each request (`observe`), and the served tools their calls (`callStarted` / `callEnded`).
 */
export class ServedActivity {
  readonly #clients = new Map<string, ServedClient>();
  readonly #calls: ServedCall[] = [];
  #nextCall = 1;
  readonly #now: () => number;

  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
  }

  /**
   * Reads one request's JSON-RPC body (a message or a batch) and headers: which client sent it,
   * and what it said of itself. `sessionHeader` is its `Mcp-Session-Id`.
   */
  observe(body: unknown, sessionHeader: string | null): ObservedRequest {
    const messages = Array.isArray(body) ? body : [body];
    for (const message of messages) {
      if (!isObject(message) || typeof message.method !== "string") continue;
      const params = isObject(message.params) ? message.params : {};
      if (message.method === "initialize") {
        const info = isObject(params.clientInfo) ? params.clientInfo : {};
        return {
          session: "pending",
          initialize: {
            name: clientText(info.name, "unknown"),
            version: clientText(info.version, "?"),
            protocolVersion: clientText(params.protocolVersion, "") || null,
          },
        };
      }
    }
    if (sessionHeader) {
      const session = clientText(sessionHeader, "unknown");
      this.#touch(session, messages.length, () => ({
        name: "unknown",
        version: "?",
        protocolVersion: null,
      }));
      return { session };
    }
    // 2026-07-28: every request names its client in `_meta`.
    for (const message of messages) {
      if (!isObject(message) || !isObject(message.params) || !isObject(message.params._meta)) continue;
      const meta = message.params._meta;
      const info = meta["io.modelcontextprotocol/clientInfo"];
      if (!isObject(info)) continue;
      const name = clientText(info.name, "unknown");
      const version = clientText(info.version, "?");
      const session = `stateless:${name}@${version}`;
      this.#touch(session, messages.length, () => ({
        name,
        version,
        protocolVersion: clientText(meta["io.modelcontextprotocol/protocolVersion"], "") || null,
      }));
      return { session };
    }
    return { session: "unknown" };
  }

  /** An `initialize` was answered: the session the response named (none: a stateless answer). */
  initialized(observed: ObservedRequest, sessionId: string | null): string {
    const info = observed.initialize;
    if (!info) return observed.session;
    const session = sessionId ? clientText(sessionId, "unknown") : `stateless:${info.name}@${info.version}`;
    this.#touch(session, 1, () => info);
    return session;
  }

  /** A client ended its session. */
  closed(sessionHeader: string): void {
    const client = this.#clients.get(sessionHeader);
    if (client) client.closed = true;
  }

  /** A `tools/call` began; returns its id for {@link ServedActivity.callEnded}. */
  callStarted(session: string, tool: string): number {
    const id = this.#nextCall++;
    this.#calls.unshift({
      id,
      session: session.startsWith("stateless:") ? "stateless" : session,
      clientName: this.#clients.get(session)?.name ?? "unknown",
      tool: clientText(tool, "?"),
      startedAt: this.#now(),
      outcome: "running",
    });
    this.#calls.length = Math.min(this.#calls.length, maximumCalls);
    return id;
  }

  callEnded(id: number, outcome: Exclude<ServedCall["outcome"], "running">, detail?: string): void {
    const call = this.#calls.find((candidate) => candidate.id === id);
    if (!call) return;
    call.outcome = outcome;
    call.durationMs = Math.max(0, this.#now() - call.startedAt);
    if (detail) call.detail = clientText(detail.split("\n")[0], "").slice(0, 300);
  }

  /** Clients, the most recently seen first. */
  clients(): ServedClient[] {
    return [...this.#clients.values()]
      .sort((a, b) => b.lastSeen - a.lastSeen)
      .map((client) => ({ ...client }));
  }

  /** Calls, newest first. */
  calls(): ServedCall[] {
    return this.#calls.map((call) => ({ ...call }));
  }

  #touch(
    session: string,
    requests: number,
    make: () => { name: string; version: string; protocolVersion: string | null },
  ): void {
    const now = this.#now();
    let client = this.#clients.get(session);
    if (!client) {
      const shown = session.startsWith("stateless:") ? "stateless" : session;
      client = { ...make(), session: shown, firstSeen: now, lastSeen: now, requests: 0 };
      this.#clients.set(session, client);
      if (this.#clients.size > maximumClients) {
        const oldest = [...this.#clients.entries()].sort((a, b) => a[1].lastSeen - b[1].lastSeen)[0];
        if (oldest) this.#clients.delete(oldest[0]);
      }
    }
    client.lastSeen = now;
    client.requests += requests;
  }
}

function isObject(value: unknown): value is Record<string, any> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
