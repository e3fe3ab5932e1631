import type { ClientCapabilities } from "@junction/types";
import { errorMessage } from "@junction/types";
import {
  Client,
  type ClientOptions,
  type ConnectOptions,
  InMemoryTransport,
  type jsonSchemaValidator,
  LOG_LEVEL_META_KEY,
  SSEClientTransport,
  SseError,
  StreamableHTTPClientTransport,
  type Transport,
  UnauthorizedError,
  type VersionNegotiationOptions,
} from "@modelcontextprotocol/client";
import { fetchWithOwnSignal } from "./fetch-with-own-signal.js";
import type { MCPConfig, MCPHttpConfig, MCPProtocolVersion } from "./mcp-config.js";
import { httpStatus, isEraNegotiationFailure, isRequestTimeout, safeError } from "./mcp-errors.js";
import { tapTransport } from "./message-tap.js";
import type { TaskFollower } from "./modern-task.js";
import { stdioTransportFactory } from "./stdio-support.js";
import type { StdioProcessTransport } from "./stdio-transport.js";
import { LeanStreamableHTTPTransport } from "./streamable-http-transport.js";
import { TaskStatusSignals } from "./task-status-signals.js";

/** The client identity sent in `initialize` (and, on 2026-07-28, in every request's `_meta`). */
export const CLIENT_INFO = { name: "junction-mcp-client", version: "0.1.0" };

/**
 * The SDK client with one addition: on 2026-07-28, which has no `logging/setLevel`, the log
 * level the user chose travels in the `_meta` of every request, beside the SDK's own keys.
 */
export class JunctionClient extends Client {
  /** The log level to send, read at each request. */
  logLevel: () => string | undefined = () => undefined;
  /** Wakes the polling of this session's 2025-11-25 tasks when the server tells of a status change. */
  readonly taskStatus = new TaskStatusSignals();

  protected override _outboundMetaEnvelope(): Readonly<Record<string, unknown>> | undefined {
    const envelope = super._outboundMetaEnvelope();
    const level = this.logLevel();
    return envelope && level !== undefined ? { ...envelope, [LOG_LEVEL_META_KEY]: level } : envelope;
  }
}

/** One live connection: an SDK client over one transport. A reconnect makes a new session. */
export interface Session {
  client: JunctionClient;
  transport: Transport;
  kind: "stdio" | "http" | "sse" | "memory";
  /** Set when the session is being closed on purpose, so its close is not taken for a crash. */
  closing: boolean;
  /** Follows the 2026-07-28 tasks extension beneath the client (modern sessions only). */
  tasks?: TaskFollower;
  /** Requests sent on this session and not yet settled (see `MCPConnection.run`). */
  inFlight?: number;
  /**
   * Set when the server said it no longer knows this session: the session is closed once its
   * requests in flight have settled, so each of them gets the server's own answer (and is retried
   * on the new session) instead of a closed connection whose outcome nobody knows.
   */
  retired?: boolean;
}

/** What a session needs from the `MCP` that opens it. */
export interface SessionSetup {
  config: MCPConfig;
  serverName: () => string;
  capabilities: ClientCapabilities;
  /** Given to the SDK client, so a connection builds at most one Ajv instance, and only when needed. */
  validator: jsonSchemaValidator;
  /** Registers request and notification handlers on a fresh client. */
  install: (client: JunctionClient) => void;
  secrets: readonly string[];
  /** Remembers an HTTP/SSE transport that needs `finishAuth()`. */
  onUnauthorized: (transport: StreamableHTTPClientTransport | SSEClientTransport) => void;
  /** Skip the SSE fallback (re-establishing a Streamable HTTP session that already worked). */
  streamableOnly?: boolean;
  /**
   * The era an earlier session of this connection negotiated: a server that was legacy is
   * reconnected without the `server/discover` probe.
   */
  priorEra?: "modern" | "legacy";
  /** Aborts the handshake (the connection was closed): a started server process is ended. */
  signal?: AbortSignal;
}

/**
 * The SDK's negotiation mode for a configured `protocolVersion`: `"auto"` probes with
 * `server/discover` and falls back to `initialize`, a revision pins it.
 */
export function versionNegotiation(
  protocolVersion: MCPProtocolVersion | undefined,
  probeTimeoutMs?: number,
): VersionNegotiationOptions {
  switch (protocolVersion ?? "auto") {
    case "2025-11-25":
      return { mode: "legacy" };
    case "2026-07-28":
      return { mode: { pin: "2026-07-28" } };
    default:
      return probeTimeoutMs === undefined
        ? { mode: "auto" }
        : { mode: "auto", probe: { timeoutMs: probeTimeoutMs } };
  }
}

/** Opens a session: makes the transport, connects, and runs the initialize handshake. */
export async function openSession(setup: SessionSetup): Promise<Session> {
  const { config } = setup;
  const timeout = config.connectTimeoutMs ?? 30_000;
  // One deadline for the whole connect: the probe, the fallback handshake, a second start. Every
  // request of the handshake is aborted when it passes (the SDK then rejects with its timeout).
  const deadline = setup.signal
    ? AbortSignal.any([AbortSignal.timeout(timeout), setup.signal])
    : AbortSignal.timeout(timeout);
  // A stdio server that ignores the probe is legacy: the SDK falls back to initialize once the
  // probe times out, so the probe gets half the budget and initialize keeps the rest. Over HTTP a
  // probe timeout is an outage (no fallback): it may use the whole budget.
  const probeTimeoutMs = config.transport === "stdio" ? Math.ceil(timeout / 2) : undefined;
  const newClient = (): JunctionClient => {
    const client = new JunctionClient(CLIENT_INFO, {
      // @junction/types describes the capabilities as the specification does; the SDK's type
      // narrows `experimental` values to JSON objects.
      capabilities: setup.capabilities as ClientOptions["capabilities"],
      jsonSchemaValidator: setup.validator,
      versionNegotiation: versionNegotiation(config.protocolVersion, probeTimeoutMs),
    });
    setup.install(client);
    return client;
  };
  switch (config.transport) {
    case "stdio":
      return openStdio(setup, { config, newClient, timeout, deadline });
    case "http":
      return openHttp(setup, { config, newClient, timeout, deadline });
    case "sse": {
      const transport = new SSEClientTransport(new URL(config.url), {
        requestInit: { headers: config.headers },
      });
      const client = newClient();
      await connectRemote(setup, { client, transport, timeout, deadline, via: "SSE" });
      return { client, transport, kind: "sse", closing: false };
    }
    case "memory": {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await config.server.connect(serverSide);
      const client = newClient();
      try {
        await client.connect(
          tapTransport(clientSide, config),
          connectOptions(timeout, setup.priorEra === "legacy", deadline),
        );
      } catch (error) {
        throw connectFailure(setup, "the in-memory server", { error, timeout });
      }
      return { client, transport: clientSide, kind: "memory", closing: false };
    }
    default: {
      const unknown: never = config;
      throw safeError(
        "mcp-config-invalid",
        `unknown transport ${JSON.stringify((unknown as { transport?: unknown }).transport)}`,
        { secrets: setup.secrets },
      );
    }
  }
}

/** The budget of one connect and the deadline that enforces it. */
interface ConnectBudget {
  timeout: number;
  deadline: AbortSignal;
}

/**
 * Opens a stdio session: starts the server process and connects. A server that exits during the
 * `server/discover` probe of "auto" is started once more and spoken to in the 2025 handshake.
 */
async function openStdio(
  setup: SessionSetup,
  {
    config,
    newClient,
    timeout,
    deadline,
  }: ConnectBudget & {
    config: Extract<MCPConfig, { transport: "stdio" }>;
    newClient: () => JunctionClient;
  },
): Promise<Session> {
  const startProcess = await stdioTransportFactory(setup.serverName());
  const spawn = () =>
    startProcess({
      command: config.command,
      args: config.args,
      env: config.env,
      cwd: config.cwd,
      onStderr: config.onStderr,
    });
  const legacyKnown = setup.priorEra === "legacy" && (config.protocolVersion ?? "auto") === "auto";
  let transport = spawn();
  let client = newClient();
  // The SDK's server/discover probe waits out its own timeout whatever the signal: an abandoned
  // handshake ends its process, which ends the probe too.
  const abandon = () => void transport.close().catch(() => undefined);
  setup.signal?.addEventListener("abort", abandon, { once: true });
  try {
    await client.connect(tapTransport(transport, config), connectOptions(timeout, legacyKnown, deadline));
  } catch (error) {
    const exitedByItself =
      transport.pid !== undefined && transport.exit !== undefined && !setup.signal?.aborted;
    await transport.close();
    // "auto" probes in place with `server/discover`: a legacy server may take the unknown
    // request as fatal and exit. Whatever the error, a server that went away during the
    // probe is started again and spoken to in the 2025 handshake, which is what it knows.
    const probed = (config.protocolVersion ?? "auto") === "auto" && !legacyKnown;
    if (!probed || !exitedByItself || isRequestTimeout(error)) {
      const failure = startFailure(setup, transport, { error, timeout });
      if (exitedByItself) diedBeforeAnswering.add(failure);
      throw failure;
    }
    transport = spawn();
    client = newClient();
    try {
      await client.connect(tapTransport(transport, config), connectOptions(timeout, true, deadline));
    } catch (retryError) {
      await transport.close();
      const failure = startFailure(setup, transport, { error: retryError, timeout });
      if (transport.exit !== undefined) diedBeforeAnswering.add(failure);
      throw failure;
    }
  } finally {
    setup.signal?.removeEventListener("abort", abandon);
  }
  return { client, transport, kind: "stdio", closing: false };
}

async function openHttp(
  setup: SessionSetup,
  {
    config,
    newClient,
    timeout,
    deadline,
  }: ConnectBudget & {
    config: MCPHttpConfig;
    newClient: () => JunctionClient;
  },
): Promise<Session> {
  const url = new URL(config.url);
  const fetch = fetchWithOwnSignal(config.fetch);
  const streamable = new StreamableHTTPClientTransport(url, {
    requestInit: { headers: config.headers },
    authProvider: config.authProvider,
    fetch,
  });
  // Without OAuth, plain requests take the lean POST path; with it, the SDK's transport owns every
  // request (the token, its refresh, step-up).
  const transport = config.authProvider
    ? streamable
    : new LeanStreamableHTTPTransport(url, streamable, { headers: config.headers, fetch: config.fetch });
  const client = newClient();
  const legacyKnown = setup.priorEra === "legacy" && (config.protocolVersion ?? "auto") === "auto";
  try {
    await client.connect(tapTransport(transport, config), connectOptions(timeout, legacyKnown, deadline));
    return { client, transport, kind: "http", closing: false };
  } catch (error) {
    const status = httpStatus(error);
    // Only a 4xx on the first POST means "this is an old HTTP+SSE server". 401/403 are auth
    // problems the fallback cannot solve; 5xx, refused connections and timeouts are real errors.
    const fallback =
      config.sseFallback !== false &&
      !setup.streamableOnly &&
      status !== undefined &&
      status >= 400 &&
      status < 500 &&
      status !== 401 &&
      status !== 403;
    if (!fallback) {
      if (error instanceof UnauthorizedError) setup.onUnauthorized(streamable);
      throw connectFailure(setup, describeUrl(url), { error, timeout });
    }
    // Dropping the Streamable HTTP attempt before trying SSE: its failure was the answer we act on.
    await client.close().catch(() => undefined);
    const sse = new SSEClientTransport(url, {
      requestInit: { headers: config.headers },
      authProvider: config.authProvider,
      fetch,
    });
    const sseClient = newClient();
    await connectRemote(setup, {
      client: sseClient,
      transport: sse,
      timeout,
      deadline,
      via: `SSE (after Streamable HTTP answered ${status})`,
    });
    return { client: sseClient, transport: sse, kind: "sse", closing: false };
  }
}

async function connectRemote(
  setup: SessionSetup,
  {
    client,
    transport,
    timeout,
    deadline,
    via,
  }: ConnectBudget & {
    client: JunctionClient;
    transport: SSEClientTransport;
    via: string;
  },
): Promise<void> {
  try {
    // HTTP+SSE is the 2024-11-05 transport: no server/discover probe on it.
    await client.connect(tapTransport(transport, setup.config), connectOptions(timeout, true, deadline));
  } catch (error) {
    if (error instanceof UnauthorizedError) setup.onUnauthorized(transport);
    // A failed SSE connect leaves its event stream retrying, which keeps the process alive.
    else await client.close().catch(() => undefined);
    throw connectFailure(
      setup,
      `${describeUrl(new URL((setup.config as { url: string }).url))} over ${via}`,
      { error, timeout },
    );
  }
}

function connectOptions(timeout: number, legacyKnown: boolean, deadline: AbortSignal): ConnectOptions {
  return legacyKnown
    ? { timeout, signal: deadline, prior: { kind: "legacy" } }
    : { timeout, signal: deadline };
}

/** The URL without credentials, query or fragment, which may carry secrets. */
export function describeUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

/** Where a server runs, for its name when it has no other: the command line, or the URL without secrets. */
export function describeServer(config: MCPConfig): string {
  switch (config.transport) {
    case "stdio":
      return [config.command, ...(config.args ?? [])].join(" ");
    case "http":
    case "sse":
      return URL.canParse(config.url) ? describeUrl(new URL(config.url)) : "invalid URL";
    case "memory":
      return "in-memory server";
    default: {
      const unknown: never = config;
      return String((unknown as { transport?: unknown }).transport);
    }
  }
}

/** Why a handshake failed, for the message. */
export function connectFailureReason(error: unknown, timeout: number): string {
  const unreachable = unreachableReason(error);
  if (unreachable) return unreachable;
  if (isRequestTimeout(error)) return `no answer to initialize within ${timeout} ms`;
  const message = errorMessage(error);
  const status = httpStatus(error);
  if (status !== undefined) {
    // The v2 transport keeps the response body apart from the message: say it, it is often the why.
    const body = (error as { data?: { text?: unknown } }).data?.text;
    const text =
      typeof body === "string" && body && !message.includes(body) ? `: ${body.slice(0, 1000)}` : "";
    return `HTTP ${status}: ${message}${text}`;
  }
  if (isEraNegotiationFailure(error)) return `no protocol revision both sides speak: ${message}`;
  return message;
}

/**
 * Why nothing answered at all, when the network says so (a refused connection, an unknown host,
 * an untrusted certificate): found by the system error code anywhere in the cause chain (the SDK
 * wraps fetch's `TypeError: fetch failed`, which wraps the socket's error), or in the text of an
 * SSE error, which keeps no cause. Undefined when a server answered.
 */
export function unreachableReason(error: unknown): string | undefined {
  let code: string | undefined;
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current && code === undefined; depth++) {
    const candidate = (current as { code?: unknown }).code;
    if (typeof candidate === "string" && Object.hasOwn(NETWORK_ERRORS, candidate)) code = candidate;
    current = (current as { cause?: unknown }).cause;
  }
  if (code === undefined && error instanceof SseError) {
    code = Object.keys(NETWORK_ERRORS).find((known) => new RegExp(`\\b${known}\\b`).test(error.message));
  }
  return code === undefined ? undefined : `${NETWORK_ERRORS[code]} (${code})`;
}

const TRUST_PROXY_CA = "behind a TLS-inspecting proxy, point NODE_EXTRA_CA_CERTS at its CA certificate";
const NETWORK_ERRORS: Record<string, string> = {
  ECONNREFUSED:
    "the connection was refused: nothing is listening there; check the URL and that the server is running",
  ENOTFOUND: "the host name could not be resolved; check the URL",
  EAI_AGAIN: "the host name could not be resolved (DNS did not answer); check the URL and the network",
  ECONNRESET: "the connection was reset before the server answered",
  ETIMEDOUT: "the host did not accept the connection in time",
  EHOSTUNREACH: "the host cannot be reached from this network",
  ENETUNREACH: "the host's network cannot be reached",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: `the server's TLS certificate is not trusted (${TRUST_PROXY_CA})`,
  SELF_SIGNED_CERT_IN_CHAIN: `the server's TLS certificate chain is not trusted (${TRUST_PROXY_CA})`,
  DEPTH_ZERO_SELF_SIGNED_CERT: "the server's TLS certificate is self-signed and not trusted",
  CERT_HAS_EXPIRED: "the server's TLS certificate has expired",
  ERR_TLS_CERT_ALTNAME_INVALID: "the server's TLS certificate is not valid for this host name",
};

/** What a failed connect or start threw, and the timeout it ran under. */
interface Failed {
  error: unknown;
  timeout: number;
}

function connectFailure(setup: SessionSetup, target: string, { error, timeout }: Failed) {
  const name = setup.serverName();
  // An unnamed server is named by its URL: say the URL once.
  const server = target.startsWith(name) ? "MCP server" : `MCP server "${name}"`;
  return safeError(
    "mcp-connect-failed",
    `could not connect to ${server} at ${target}: ${connectFailureReason(error, timeout)}`,
    { secrets: setup.secrets, cause: error },
  );
}

/**
 * Whether a failed connect was the server's answer (a JSON-RPC error, an HTTP 4xx or 5xx, a
 * result the client could not accept), rather than silence, an unreachable address or a request
 * for authorization. A remembered 2025 handshake the server answered that way may be stale.
 */
export function refusedByServer(error: unknown): boolean {
  const cause = (error as { cause?: unknown } | undefined)?.cause ?? error;
  if (isRequestTimeout(cause) || unreachableReason(error) !== undefined) return false;
  if (cause instanceof UnauthorizedError) return false;
  const status = httpStatus(cause);
  return status !== 401 && status !== 403;
}

const diedBeforeAnswering = new WeakSet<object>();

/**
 * Whether a stdio connect failed because the server process exited by itself during the
 * handshake. Such a failure says nothing about the protocol revision it speaks, so a remembered
 * revision is kept (and a dying server is not started twice per reconnect attempt).
 */
export function serverDiedDuringHandshake(error: unknown): boolean {
  return typeof error === "object" && error !== null && diedBeforeAnswering.has(error);
}

/**
 * What a server wrote to stdout that is not JSON-RPC, quoted: the classic mistake of logging to
 * stdout, which is the protocol channel, so the client never sees a valid answer.
 */
function stdoutNoise(transport: StdioProcessTransport): string {
  if (transport.garbageLines === 0) return "";
  const lines = transport.garbageLines === 1 ? "1 line that is" : `${transport.garbageLines} lines that are`;
  const quoted = transport.garbageSample.map((line) => `\n  ${line}`).join("");
  return `\nit wrote ${lines} not JSON-RPC to stdout (stdout carries the protocol: a server must log to stderr):${quoted}`;
}

function startFailure(setup: SessionSetup, transport: StdioProcessTransport, { error, timeout }: Failed) {
  const config = setup.config as Extract<MCPConfig, { transport: "stdio" }>;
  const commandLine = [config.command, ...(config.args ?? [])].join(" ");
  const exit = transport.exit;
  let what: string;
  if (isRequestTimeout(error)) what = connectFailureReason(error, timeout);
  else if (transport.pid === undefined) what = `could not run it: ${errorMessage(error)}`;
  else if (exit?.signal) what = `it was killed by ${exit.signal} before finishing the handshake`;
  else if (exit) what = `it exited with code ${exit.code} before finishing the handshake`;
  else what = connectFailureReason(error, timeout);
  const stderr = transport.stderr().trim();
  const tail = stderr ? `\nstderr (last lines):\n${stderr.split("\n").slice(-20).join("\n")}` : "";
  return safeError(
    "mcp-connect-failed",
    `MCP server "${setup.serverName()}" failed to start (command: ${commandLine}): ${what}${stdoutNoise(transport)}${tail}`,
    { secrets: setup.secrets, cause: error },
  );
}
