import { type ClientCapabilities, errorMessage, JunctionError } from "@junction/types";
import type {
  RequestOptions,
  SSEClientTransport,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import type { MCPConfig, MCPReconnectOptions } from "./mcp-config.js";
import { isSessionGone, safeAbortError, safeError, toJunctionError } from "./mcp-errors.js";
import {
  type JunctionClient,
  openSession,
  refusedByServer,
  type Session,
  serverDiedDuringHandshake,
} from "./mcp-session.js";
import type { LazySchemaValidator } from "./output-schema-validator.js";
import { isLegacyRevision, rememberEra, rememberedLegacy } from "./protocol-memory.js";
import { layerConnectedSession } from "./session-layers.js";

/** Options of one request: its own timeout and a signal to cancel it. */
export interface MCPRequestOptions {
  /** Cancels the request: the server gets `notifications/cancelled`. */
  signal?: AbortSignal;
  /** Overrides the server's `timeoutMs` for this request. */
  timeoutMs?: number;
}

/**
 * Where a connection stands (`MCP.state`):
 *
 * - `idle`: never connected (or the first `connect()` failed): call `connect()`.
 * - `connecting`: the first `connect()` is under way.
 * - `connected`: a session is live.
 * - `reconnecting`: the session was lost (the process died, the server forgot the session);
 *   a new one is being opened with backoff, and requests wait for it within their timeout.
 * - `disconnected`: the last reconnect gave up (`MCP.lastError` says why), or reconnecting is
 *   off; the next request (or `connect()`) tries again, unless `reconnect` is `false`.
 * - `closed`: `close()` was called: create a new `MCP`.
 */
export type MCPConnectionState =
  | "idle"
  | "connecting"
  | "connected"
  | "reconnecting"
  | "disconnected"
  | "closed";
type State = MCPConnectionState;

/**
 * The one attempt a connection with `reconnect: false` still makes when the server answers that it
 * no longer knows the session: the request never ran, and the server is up.
 */
const REOPEN_ONCE: Required<MCPReconnectOptions> = { maxAttempts: 1, initialDelayMs: 0, maxDelayMs: 0 };

const DEFAULT_RECONNECT: Required<MCPReconnectOptions> = {
  maxAttempts: 5,
  initialDelayMs: 500,
  maxDelayMs: 10_000,
};

/** What the connection asks of the `MCP` that owns it. */
export interface ConnectionHooks {
  /** The name errors use (it can change once the server has told its own). */
  serverName(): string;
  /** The capabilities to advertise in `initialize`. */
  clientCapabilities(): ClientCapabilities;
  /** Registers request and notification handlers on a fresh client. */
  install(client: JunctionClient): void;
  /** A session became current (first connect or reconnect): read what the server told. */
  adopted(session: Session): void;
  /** The current session is gone (lost or closed): drop what was cached from it. */
  dropped(): void;
  /**
   * The server said on a stream that it no longer knows the current session (a server restarted
   * while the connection was idle): drop what was cached from it; the next request re-opens it.
   */
  stale(): void;
  /** A new session replaced a lost one: restore what the old one had set up. */
  resumed(session: Session, requestOptions: RequestOptions): Promise<void>;
}

/** What a connection is built from beside its config. */
export interface ConnectionParts {
  /** Values redacted from every error. */
  secrets: readonly string[];
  validator: LazySchemaValidator;
  hooks: ConnectionHooks;
}

/** How long a request may wait for a usable session. */
interface RequestWait {
  /** When the request times out (epoch ms). */
  deadline: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * The connection state machine of one `MCP`: connect, lose the session, reconnect with bounded
 * backoff, re-establish an HTTP session the server forgot, wait for a usable session within a
 * request's deadline, and close. It knows nothing of tools, resources or prompts.
 */
export class MCPConnection {
  private state: State = "idle";
  private current?: Session;
  private connecting?: Promise<void>;
  private ready?: { promise: Promise<Session>; resolve(session: Session): void; reject(error: Error): void };
  private reconnectTimer?: ReturnType<typeof setTimeout>;
  /** The reconnect attempt {@link reconnectTimer} waits to make: `connect()` makes it at once. */
  private attemptNow?: () => Promise<void>;
  private lastFailure?: Error;
  /**
   * How the lost session is re-opened (Streamable HTTP only, without the SSE fallback, for a
   * session that already worked), kept after a reconnect gave up so the next use tries again.
   * Undefined when nothing was lost, or when a lost session is not re-opened by itself
   * (`reconnect: false`, an in-memory server).
   */
  private reopen?: {
    streamableOnly: boolean;
    options: Required<MCPReconnectOptions>;
    /** What happened, for the message of a reconnect that gives up: "stopped", "lost the session". */
    what: string;
  };
  private authTransport?: StreamableHTTPClientTransport | SSEClientTransport;
  /**
   * The era the last session negotiated (or the config's `protocolVersionHint` told), so a
   * reconnect to a legacy server skips the probe.
   */
  private era?: "modern" | "legacy";
  /** Whether the revision is negotiated (`protocolVersion` "auto"), the only case a remembered era serves. */
  private readonly negotiated: boolean;
  private readonly reconnectOptions: Required<MCPReconnectOptions> | false;
  /** Stops following the tasks of the current 2026-07-28 session. */
  private stopFollowingTasks?: () => void;
  /** Aborted by `close()`: a handshake under way ends, and the server process it started with it. */
  private readonly abandoned = new AbortController();
  /** The reconnect attempt opening a session now, which `close()` waits for (its process ends with it). */
  private opening?: Promise<Session | undefined>;

  private readonly config: MCPConfig;
  private readonly secrets: readonly string[];
  private readonly validator: LazySchemaValidator;
  private readonly hooks: ConnectionHooks;

  constructor(config: MCPConfig, parts: ConnectionParts) {
    this.config = config;
    ({ secrets: this.secrets, validator: this.validator, hooks: this.hooks } = parts);
    this.reconnectOptions =
      config.reconnect === false ? false : { ...DEFAULT_RECONNECT, ...config.reconnect };
    this.negotiated = (config.protocolVersion ?? "auto") === "auto";
    if (this.negotiated && isLegacyRevision(config.protocolVersionHint)) this.era = "legacy";
  }

  /** Whether a session is live. */
  get connected(): boolean {
    return this.state === "connected";
  }

  /** Where the connection stands (see {@link MCPConnectionState}). */
  get status(): MCPConnectionState {
    return this.state;
  }

  /** Why the connection is `disconnected` (or why the first `connect()` failed), else `undefined`. */
  get failure(): Error | undefined {
    return this.state === "connected" ? undefined : this.lastFailure;
  }

  /**
   * The first `count` delays of the reconnect backoff (the defaults when `reconnect` is `false`),
   * for what waits on a server that came back before it is ready.
   */
  backoffDelays(count: number): number[] {
    const options = this.reconnectOptions || DEFAULT_RECONNECT;
    return Array.from({ length: count }, (_, attempt) => backoffDelay(options, attempt));
  }

  /** Whether `close()` was called. */
  get closed(): boolean {
    return this.state === "closed";
  }

  /** The live session, if there is one. */
  get session(): Session | undefined {
    return this.current;
  }

  private get name(): string {
    return this.hooks.serverName();
  }

  /**
   * Opens a session; concurrent callers share one attempt. While reconnecting, makes the next
   * attempt at once (instead of after its backoff) and waits for that reconnect; once
   * disconnected (a reconnect gave up), opens a new session at once and restores what the lost
   * one had set up.
   */
  async connect(): Promise<void> {
    if (this.state === "connected") return;
    if (this.state === "closed") {
      throw new JunctionError(
        "mcp-not-connected",
        `MCP connection "${this.name}" was closed; create a new MCP`,
      );
    }
    if (this.state === "reconnecting" && this.ready) {
      const ready = this.ready.promise;
      // Asked for: the attempt waiting out its backoff is made now.
      const attempt = this.attemptNow;
      if (attempt) {
        clearTimeout(this.reconnectTimer);
        void attempt();
      }
      await ready;
      return;
    }
    this.connecting ??= (async () => {
      const lost = this.state === "disconnected";
      this.state = "connecting";
      try {
        const session = await this.open(this.reopen?.streamableOnly ?? false);
        if (this.state !== "connecting") {
          // Closed meanwhile: nobody uses this session, so its close failing changes nothing.
          session.closing = true;
          await session.client.close().catch(() => undefined);
          return;
        }
        if (lost) await this.resume(session);
        else this.adopt(session);
      } catch (error) {
        // Closed meanwhile, which ended the handshake: as for a session that opened after all.
        if (this.closed && this.abandoned.signal.aborted) return;
        if (this.state === "connecting") {
          this.state = lost ? "disconnected" : "idle";
          this.lastFailure = error instanceof Error ? error : new Error(String(error));
        }
        throw error;
      } finally {
        this.connecting = undefined;
      }
    })();
    return this.connecting;
  }

  /**
   * Opens a session. A server known to be legacy (this connection found it so, the config's
   * `protocolVersionHint` says so, or another connection of this process to the same server
   * found it so) is spoken to with `initialize` at once, without the `server/discover` probe. If
   * the server answers but refuses that, it may have been upgraded in place: the era is forgotten
   * and the server probed at once. A server that died or never answered tells nothing about its
   * revision; the era is forgotten for the next attempt unless it died by itself.
   */
  private async open(streamableOnly = false): Promise<Session> {
    const priorEra = this.era ?? (this.negotiated && rememberedLegacy(this.config) ? "legacy" : undefined);
    try {
      return await this.openWith(priorEra, streamableOnly);
    } catch (error) {
      if (serverDiedDuringHandshake(error) || this.abandoned.signal.aborted) throw error;
      this.era = undefined;
      if (priorEra !== "legacy") throw error;
      rememberEra(this.config, undefined);
      if (!refusedByServer(error)) throw error;
    }
    return this.openWith(undefined, streamableOnly);
  }

  private openWith(priorEra: "modern" | "legacy" | undefined, streamableOnly: boolean): Promise<Session> {
    return openSession({
      config: this.config,
      serverName: () => this.name,
      capabilities: this.hooks.clientCapabilities(),
      validator: this.validator,
      secrets: this.secrets,
      streamableOnly,
      priorEra,
      signal: this.abandoned.signal,
      onUnauthorized: (transport) => {
        this.authTransport = transport;
      },
      install: (client) => this.hooks.install(client),
    });
  }

  private adopt(session: Session): void {
    this.stopFollowingTasks?.();
    this.stopFollowingTasks = undefined;
    this.current = session;
    this.era = session.client.getProtocolEra();
    if (this.negotiated) rememberEra(this.config, this.era);
    const follower = layerConnectedSession(session, this.era);
    if (follower) {
      session.tasks = follower;
      this.stopFollowingTasks = follower.stop;
    }
    this.hooks.adopted(session);
    this.state = "connected";
    this.lastFailure = undefined;
    session.client.onerror = (error) => {
      // Transport noise (a garbage stdout line, a dropped SSE stream) is not fatal; a real
      // failure shows up as a rejected request or a close. A standalone SSE stream told that the
      // session is gone (a server restarted while idle) drops what the session implied, so the
      // next turn lists the tools again; that request's own 404 re-opens the session. Re-opening
      // from the stream itself broke an authorization step-up (the conformance suite's
      // auth/scope-step-up on 2025-11-25: a new session in the middle of the flow).
      if (
        session.kind === "http" &&
        session === this.current &&
        isSessionGone(error, hasSessionId(session))
      ) {
        this.hooks.stale();
      }
    };
    session.client.onclose = () => this.sessionClosed(session);
  }

  private sessionClosed(session: Session): void {
    if (session.closing || session !== this.current || this.state === "closed") return;
    // The server is gone, but processes it started may linger in its group: end them too.
    // (The SDK client has already let go of the transport, so close the transport itself.)
    session.closing = true;
    // The server is already gone; this only reaps what it left behind, and the drop is reported below.
    void session.transport.close().catch(() => undefined);
    const reopens = this.reconnectOptions !== false && session.kind !== "memory";
    this.lose(
      reopens
        ? {
            streamableOnly: false,
            options: this.reconnectOptions as Required<MCPReconnectOptions>,
            what: "stopped",
          }
        : undefined,
    );
  }

  /**
   * The server said it no longer knows `gone` (a 404, or a 400 naming the session): the one path
   * a session that died takes, as {@link sessionClosed} for a closed one. The session is closed
   * once its other requests in flight have their own answers (see {@link Session.retired}).
   */
  private sessionGone(gone: Session): void {
    if (this.current !== gone || this.state !== "connected") return;
    gone.closing = true;
    gone.retired = true;
    if (!gone.inFlight) retire(gone);
    this.lose({
      streamableOnly: true,
      options: this.reconnectOptions || REOPEN_ONCE,
      what: "lost the session",
    });
  }

  /**
   * A session died: drop everything it implied (the tools, the listen stream; the next session's
   * capabilities and instructions are read afresh) and, when `reopen` is given, reconnect with
   * backoff; else the connection is disconnected until `connect()`.
   */
  private lose(reopen: MCPConnection["reopen"]): void {
    this.current = undefined;
    this.stopFollowingTasks?.();
    this.stopFollowingTasks = undefined;
    this.hooks.dropped();
    this.reopen = reopen;
    if (!reopen) {
      this.state = "disconnected";
      this.lastFailure = new JunctionError(
        "mcp-connection-closed",
        `MCP server "${this.name}" closed the connection`,
      );
      return;
    }
    this.reconnect();
  }

  /** Starts a reconnect cycle: attempts with backoff, callers waiting on {@link ready}. */
  private reconnect(): void {
    this.state = "reconnecting";
    this.ready = deferred();
    this.scheduleReconnect(0);
  }

  private scheduleReconnect(attempt: number, lastError?: unknown): void {
    if (this.state !== "reconnecting" || !this.reopen) return;
    const { options, streamableOnly, what } = this.reopen;
    if (attempt >= options.maxAttempts) {
      const detail = lastError instanceof Error ? `: ${lastError.message}` : "";
      const error = safeError(
        "mcp-connection-closed",
        `MCP server "${this.name}" ${what} and could not be ${what === "stopped" ? "restarted" : "reconnected"} after ${options.maxAttempts} attempts${detail}`,
        { secrets: this.secrets, cause: lastError },
      );
      this.state = "disconnected";
      this.lastFailure = error;
      // With reconnect: false, only connect() opens a session again.
      if (!this.reconnectOptions) this.reopen = undefined;
      this.ready?.reject(error);
      this.ready = undefined;
      return;
    }
    const delay = backoffDelay(options, attempt);
    const attemptNow = async () => {
      this.reconnectTimer = undefined;
      this.attemptNow = undefined;
      if (this.state !== "reconnecting") return;
      const opening = this.openForReconnect(streamableOnly);
      this.opening = opening;
      let session: Session | undefined;
      try {
        session = await opening;
      } catch (error) {
        this.scheduleReconnect(attempt + 1, error);
        return;
      } finally {
        if (this.opening === opening) this.opening = undefined;
      }
      if (session) await this.resume(session);
    };
    this.attemptNow = attemptNow;
    this.reconnectTimer = setTimeout(attemptNow, delay);
  }

  /** Opens a session for a reconnect; undefined when the connection was closed meanwhile (the session is closed). */
  private async openForReconnect(streamableOnly: boolean): Promise<Session | undefined> {
    const session = await this.open(streamableOnly);
    if (this.state === "reconnecting") return session;
    session.closing = true;
    // A session abandoned after the connection was closed meanwhile: nobody uses it, so its close failing
    // changes nothing.
    await session.client.close().catch(() => undefined);
    return undefined;
  }

  /** Makes a new session current, restores what the old one had set up, and wakes waiting calls. */
  private async resume(session: Session): Promise<void> {
    this.adopt(session);
    const ready = this.ready;
    this.ready = undefined;
    ready?.resolve(session);
    await this.hooks.resumed(session, { timeout: this.config.timeoutMs ?? 60_000 });
  }

  /** Waits for a usable session, bounded by the request's deadline. */
  private async acquire(method: string, wait: RequestWait): Promise<Session> {
    const { deadline, timeoutMs, signal } = wait;
    if (this.state === "connected" && this.current) return this.current;
    // A reconnect that gave up is not the end: the server may be back, so this request tries again.
    if (this.state === "disconnected" && this.reopen && this.reconnectOptions) this.reconnect();
    const waitedTooLong = (doing: string) => () =>
      signal?.aborted
        ? safeAbortError(
            `${method} to MCP server "${this.name}" was aborted while ${doing}`,
            this.secrets,
            signal.reason,
          )
        : new JunctionError(
            "mcp-timeout",
            `MCP server "${this.name}" was still ${doing} when ${method} timed out after ${timeoutMs} ms`,
          );
    // A request made while connect() re-opens a lost session waits for it, as for a reconnect.
    if (this.state === "connecting" && this.connecting && this.reopen) {
      await raceDeadline(this.connecting, deadline - Date.now(), {
        signal,
        makeError: waitedTooLong("connecting"),
      });
      // connect() changed the state meanwhile.
      if ((this.state as State) === "connected" && this.current) return this.current;
    }
    if (this.state === "reconnecting" && this.ready) {
      const remaining = deadline - Date.now();
      try {
        return await raceDeadline(this.ready.promise, remaining, {
          signal,
          makeError: waitedTooLong("reconnecting"),
        });
      } catch (error) {
        // The reconnect gave up: the request was never sent.
        if (JunctionError.isInstance(error) && error.code === "mcp-connection-closed") {
          throw this.notConnected(method, error);
        }
        throw error;
      }
    }
    if (this.state === "closed") {
      throw new JunctionError("mcp-not-connected", `${method}: MCP connection "${this.name}" is closed`);
    }
    if (this.state === "disconnected" && this.lastFailure) throw this.notConnected(method, this.lastFailure);
    throw new JunctionError(
      "mcp-not-connected",
      `${method}: MCP server "${this.name}" is not connected; call connect() first`,
    );
  }

  /** A request that found no session: why, and what brings one back. */
  private notConnected(method: string, failure: Error): JunctionError {
    const again =
      this.reopen && this.reconnectOptions ? "the next request tries again" : "call connect() to try again";
    return new JunctionError(
      "mcp-not-connected",
      `${method}: MCP server "${this.name}" is not connected (${failure.message}); ${again}`,
      { cause: failure },
    );
  }

  /**
   * Runs one request on the current session: waits for a reconnect if one is under way, and when
   * the server answers that it no longer knows the session (so the request never ran), reconnects
   * and sends it once more on the new session. A request whose session died under it otherwise
   * (a closed connection, a dead process) is never sent again: the server may have run it.
   */
  async run<T>(
    method: string,
    options: MCPRequestOptions,
    send: (session: Session, requestOptions: RequestOptions) => Promise<T>,
  ): Promise<T> {
    const timeoutMs = options.timeoutMs ?? this.config.timeoutMs ?? 60_000;
    const deadline = Date.now() + timeoutMs;
    const { signal } = options;
    const failure = { server: this.name, method, timeoutMs, signal, secrets: this.secrets };
    if (signal?.aborted) throw toJunctionError(signal.reason, failure);
    const wait: RequestWait = { deadline, timeoutMs, signal };
    let session = await this.acquire(method, wait);
    const requestOptions = (): RequestOptions => ({ timeout: Math.max(1, deadline - Date.now()), signal });
    try {
      return await sendOn(session, () => send(session, requestOptions()));
    } catch (error) {
      if (!(session.kind === "http" && isSessionGone(error, hasSessionId(session))))
        throw toJunctionError(error, failure);
    }
    try {
      // Every request that got the answer is retried, not only the first: each waits for the one
      // reconnect the first started.
      this.sessionGone(session);
      session = await this.acquire(method, wait);
      return await sendOn(session, () => send(session, requestOptions()));
    } catch (error) {
      throw toJunctionError(error, { ...failure, resent: true });
    }
  }

  /**
   * Completes an OAuth authorization code flow on the transport that asked for it: the one a
   * failed connect left, else the live HTTP/SSE session's.
   */
  async finishAuth(callback: string | URLSearchParams, iss?: string): Promise<void> {
    // A request of a live session can ask for authorization too (401 after an open initialize,
    // 403 insufficient_scope step-up): its transport then holds the flow's state.
    const live = this.current;
    const transport =
      this.authTransport ??
      (live?.kind === "http" || live?.kind === "sse"
        ? (live.transport as StreamableHTTPClientTransport | SSEClientTransport)
        : undefined);
    if (!transport) {
      throw new JunctionError(
        "invalid-argument",
        `finishAuth: MCP server "${this.name}" has no pending authorization (it needs an http config with an authProvider, and a connect() that asked for authorization)`,
      );
    }
    try {
      if (typeof callback === "string") await transport.finishAuth(callback, iss);
      else await transport.finishAuth(callback);
    } catch (error) {
      throw safeError(
        "mcp-connect-failed",
        `finishAuth for MCP server "${this.name}" failed: ${errorMessage(error)}`,
        { secrets: this.secrets, cause: error },
      );
    }
    this.authTransport = undefined;
  }

  /**
   * Closes the connection. For stdio, resolves once the server's whole process tree is gone;
   * for Streamable HTTP, ends the session (DELETE) first.
   */
  async close(): Promise<void> {
    const previous = this.state;
    this.state = "closed";
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    this.attemptNow = undefined;
    this.ready?.reject(new JunctionError("mcp-not-connected", `MCP connection "${this.name}" was closed`));
    this.ready = undefined;
    // Ends a handshake under way (a server process it started ends with it) and waits for that;
    // a failure of connect() goes to whoever called it.
    this.abandoned.abort();
    if (previous === "connecting") await this.connecting?.catch(() => undefined);
    await this.opening?.catch(() => undefined);
    const session = this.current;
    this.current = undefined;
    this.stopFollowingTasks?.();
    this.stopFollowingTasks = undefined;
    this.hooks.dropped();
    if (!session) return;
    session.closing = true;
    if (session.kind === "http") {
      const transport = session.transport as StreamableHTTPClientTransport;
      // Ending the session on the server is a courtesy (the spec lets servers refuse DELETE); the client
      // closes either way.
      await raceDeadline(transport.terminateSession(), 2000).catch(() => undefined);
    }
    // close() must always leave the connection closed; a transport that fails to close has nothing left to
    // do.
    await session.client.close().catch(() => undefined);
  }
}

/** The wait before reconnect attempt `attempt` (from 0): doubling from `initialDelayMs`, at most `maxDelayMs`. */
function backoffDelay(options: Required<MCPReconnectOptions>, attempt: number): number {
  return Math.min(options.initialDelayMs * 2 ** attempt, options.maxDelayMs);
}

/** Sends on `session`, counted in its {@link Session.inFlight}; a retired session closes with its last request. */
async function sendOn<T>(session: Session, send: () => Promise<T>): Promise<T> {
  session.inFlight = (session.inFlight ?? 0) + 1;
  try {
    return await send();
  } finally {
    session.inFlight--;
    if (session.retired && session.inFlight === 0) retire(session);
  }
}

/** Whether a Streamable HTTP session has a session id (2025-11-25: the server keeps sessions). */
function hasSessionId(session: Session): boolean {
  return typeof (session.transport as { sessionId?: unknown }).sessionId === "string";
}

/** Closes a session the server forgot. */
function retire(session: Session): void {
  session.retired = false;
  // The session already died (that is why it is retired); closing it is only cleanup.
  void session.client.close().catch(() => undefined);
}

function deferred<T>(): { promise: Promise<T>; resolve(value: T): void; reject(error: Error): void } {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Nobody may be waiting when it rejects.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/** Races `promise` against `ms` and the signal, failing with `makeError()` (by default a plain timeout). */
async function raceDeadline<T>(
  promise: Promise<T>,
  ms: number,
  options: { signal?: AbortSignal; makeError?: () => Error } = {},
): Promise<T> {
  const { signal, makeError = () => new JunctionError("mcp-timeout", `timed out after ${ms} ms`) } = options;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(makeError()), Math.max(0, ms));
        if (signal) {
          onAbort = () => reject(makeError());
          signal.addEventListener("abort", onAbort, { once: true });
        }
      }),
    ]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener("abort", onAbort);
  }
}
