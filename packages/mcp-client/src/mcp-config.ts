import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  JSONObject,
} from "@junction/types";
import type { OAuthClientProvider, Transport } from "@modelcontextprotocol/client";
import type { MCPWarning } from "./mcp-warning.js";
import type { MCPOutgoingRequest, MCPWireMessage } from "./message-tap.js";

/** A root the client lets servers work within, such as a project folder (`file://…`). */
export interface MCPRoot {
  uri: string;
  name?: string;
}

/** A log message a server sent (`notifications/message`). */
export interface MCPLogMessage {
  level: string;
  logger?: string;
  data: unknown;
}

/** Answers to what a server may ask of the client. Each is advertised as a capability only when given. */
export interface MCPHandlers {
  /** Answers `sampling/createMessage`: the server asks the client's model for a completion. */
  sampling?: (request: CreateMessageRequestParams) => Promise<CreateMessageResult>;
  /**
   * Answers `elicitation/create` (form mode): the server asks the user for input. Defaults from
   * the requested schema are applied to an accepted answer (advertised as
   * `elicitation.form.applyDefaults`).
   */
  elicitation?: (request: ElicitRequestParams) => Promise<ElicitResult>;
  /** Receives the server's log messages; set the level with `MCP.setLogLevel()`. */
  log?: (message: MCPLogMessage) => void;
}

/** Restart policy for a server whose connection died. */
export interface MCPReconnectOptions {
  /** Restart attempts before giving up. @default 5 */
  maxAttempts?: number;
  /** Delay before the first attempt; doubles on each further attempt. @default 500 */
  initialDelayMs?: number;
  /** Upper bound of the delay between attempts. @default 10_000 */
  maxDelayMs?: number;
}

/** Settings every transport shares. */
export interface MCPCommon {
  /** A readable name for errors and logs. @default the server's own name (`connectAll`: the record key) */
  name?: string;
  /** Timeout of each request after connecting, in milliseconds. @default 60_000 */
  timeoutMs?: number;
  /**
   * One deadline for the whole connect, in milliseconds: spawning, the `server/discover` probe,
   * the fallback `initialize` handshake and a second start if the first process exited. (On stdio
   * the probe gets half of it: a server that ignores the probe is legacy.) @default 30_000
   */
  connectTimeoutMs?: number;
  /** Roots served to the server. Given (even empty), the `roots` capability is advertised. */
  roots?: MCPRoot[];
  handlers?: MCPHandlers;
  /**
   * Extensions advertised in the client's `capabilities.extensions` (MCP 2025-11-25), keyed by
   * identifier, with each extension's own settings (JSON, as the protocol carries them).
   *
   * @example
   * ```ts
   * extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } }
   * ```
   */
  extensions?: Record<string, JSONObject>;
  /**
   * Use the Skills extension (`io.modelcontextprotocol/skills`, SEP-2640): advertises it in the
   * client's `capabilities.extensions` and enables `MCP.listSkills()`, `getSkill()`,
   * `readSkill()` and `readSkillFile()`. Off by default: a client that advertises it tells
   * servers the host will load their skills. (Listing the extension in `extensions` works too.)
   * @default false
   */
  skills?: boolean;
  /**
   * Restart a server whose connection died, with bounded exponential backoff. While
   * reconnecting `connected` is false and new calls wait for it (bounded by their timeout);
   * calls in flight when the server died reject. @default on
   */
  reconnect?: false | MCPReconnectOptions;
  /**
   * The MCP protocol revision to speak: `"auto"` negotiates (2026-07-28 with a server that
   * offers it, 2025-11-25 otherwise), a revision pins it. Read the outcome from
   * `MCP.protocolVersion` after `connect()`. @default "auto"
   */
  protocolVersion?: MCPProtocolVersion;
  /**
   * The revision this server negotiated before (`MCP.protocolVersion` after an earlier
   * `connect()`), kept by a host across restarts. With `protocolVersion` "auto", a 2025 revision
   * (such as `"2025-11-25"`) makes `connect()` send `initialize` at once, without the
   * `server/discover` probe a legacy server refuses: one round trip (or one process start) less.
   * Only a hint: a server that refuses it is probed at once. Store `MCP.protocolVersion` after
   * each connect, and drop it when the server's config changes.
   *
   * Within one process this is remembered anyway: a server found legacy (same command line,
   * working directory and env, or same URL) is not probed again until that fails.
   */
  protocolVersionHint?: string;
  /**
   * Sees every JSON-RPC message sent to and received from the server (the initialize handshake
   * and every session after a reconnect included), with its direction and time, as a protocol
   * inspector shows them. Messages are the client's own objects and may carry secrets (tool
   * arguments, tokens a server returns): copy and redact before keeping or showing them.
   * A throwing callback is ignored.
   *
   * @example
   * ```ts
   * onMessage: ({ direction, message, at }) => console.log(direction, at, JSON.stringify(message))
   * ```
   */
  onMessage?: (message: MCPWireMessage) => void;
  /**
   * Extra `_meta` fields for each request and notification the client sends, such as W3C trace
   * context (`traceparent`, `tracestate`) as OpenTelemetry's MCP conventions carry it. Called
   * just before the message goes on the wire, in the caller's async context (so the caller's
   * current span is current); the fields are merged under `params._meta`, where the client's
   * own keys win, and `onMessage` sees the message as sent. A throwing callback adds nothing.
   *
   * @example
   * ```ts
   * requestMeta: () => { const carrier = {}; propagation.inject(context.active(), carrier); return carrier; }
   * ```
   */
  requestMeta?: (request: MCPOutgoingRequest) => Record<string, string> | undefined;
  /**
   * Receives what the connection could not keep up without failing a request: after a reconnect,
   * a resource subscription the new session refused (`resource-subscription-lost`: its listeners
   * get no more updates; subscribe again) or a log level it refused (`log-level-not-restored`).
   * Without it, each is emitted as a Node.js process warning (`process.emitWarning`, type
   * `JunctionMCPWarning`), so a lost subscription is never silent. A throwing callback is ignored.
   *
   * @example
   * ```ts
   * onWarning: (warning) => { if (warning.code === "resource-subscription-lost") resubscribeLater(warning.uri); }
   * ```
   */
  onWarning?: (warning: MCPWarning) => void;
}

/** A local server started as a process and spoken to over stdin/stdout. */
export type MCPStdioConfig = {
  transport: "stdio";
  command: string;
  args?: string[];
  /**
   * Added to a safe default environment: PATH, HOME, USER, …, and the certificate and proxy
   * variables a server needs to download itself behind a corporate proxy (NODE_EXTRA_CA_CERTS,
   * SSL_CERT_FILE, SSL_CERT_DIR, HTTP(S)_PROXY, NO_PROXY in both cases, npm_config_proxy,
   * npm_config_cafile, …). Nothing else is inherited: API keys must be given here.
   */
  env?: Record<string, string>;
  cwd?: string;
  /**
   * Receives what the server writes to stderr, chunk by chunk as it arrives (UTF-8, not split
   * into lines), for every process a reconnect starts too. Error messages carry the last lines
   * whether or not this is set.
   */
  onStderr?: (chunk: string) => void;
} & MCPCommon;

/** A remote server over Streamable HTTP, falling back to legacy SSE when the first POST gets a 4xx. */
export type MCPHttpConfig = {
  transport: "http";
  url: string;
  headers?: Record<string, string>;
  /** OAuth for servers that require it; see `MCP.finishAuth()`. */
  authProvider?: OAuthClientProvider;
  fetch?: typeof fetch;
  /** Fall back to the legacy HTTP+SSE transport when the initial POST gets a 4xx. @default true */
  sseFallback?: boolean;
} & MCPCommon;

/** A remote server over the legacy HTTP+SSE transport (protocol revision 2024-11-05). */
export type MCPSseConfig = {
  transport: "sse";
  url: string;
  headers?: Record<string, string>;
} & MCPCommon;

/**
 * A server in the same process, linked in memory: anything with `connect(transport)`, such as
 * an `McpServer` or `Server` of `@modelcontextprotocol/server` (the SDK's v2 line).
 */
export type MCPMemoryConfig = {
  transport: "memory";
  server: MCPInProcessServer;
} & MCPCommon;

/** A server object that serves one connection over a transport it is given. */
export interface MCPInProcessServer {
  connect(transport: Transport): Promise<void>;
}

/**
 * The protocol revision a connection speaks. `"auto"` (the default) asks the server with
 * `server/discover` and speaks 2026-07-28 when it offers it, else falls back to the 2025
 * `initialize` handshake; a revision pins it (a server that does not speak it fails `connect()`).
 */
export type MCPProtocolVersion = "auto" | "2026-07-28" | "2025-11-25";

/** How to reach one MCP server: a discriminated union on `transport`. */
export type MCPConfig = MCPStdioConfig | MCPHttpConfig | MCPSseConfig | MCPMemoryConfig;
