import { loadMCPConfig, MCP, type MCPConfig } from "@junction/mcp-client";
import {
  type CreateMessageRequestParams,
  type CreateMessageResult,
  errorMessage,
  JunctionError,
} from "@junction/types";
import type { ServerHealth, ServerImport, ServerStatus, StderrLog, TrafficLog } from "../shared/api-types.js";
import type { DataDir } from "./data-dir.js";
import { BUILTIN_SERVERS, builtinServerEntry, isBuiltinServer } from "./default-servers.js";
import type { ElicitationBroker } from "./elicitation-broker.js";
import { unresolvedVariable } from "./environment-allowance.js";
import type { EventHub } from "./event-hub.js";
import { LogBuffer, type ServerLogEntry } from "./log-buffer.js";
import { MCP_APPS_CAPABILITY, MCP_APPS_EXTENSION } from "./mcp-app-csp.js";
import { capLogData } from "./output-limits.js";
import { REDACTED, type SecretRedactor } from "./secret-redactor.js";
import { configDigest, type Store, type StoredServer } from "./store.js";
import { StderrRecorder, TrafficRecorder } from "./traffic-log.js";

/** What the UI shows about a server: the shared contract. */
export type { ServerStatus } from "../shared/api-types.js";

interface Entry {
  stored: StoredServer;
  mcp?: MCP;
  status: "connecting" | "connected" | "error" | "disabled";
  error?: string;
  health?: ServerHealth;
  /** What the config loader said about the entry when it was last connected (unknown keys). */
  warnings?: string[];
}

/** A server's traffic and stderr, kept across reconnects and edits until it is removed. */
interface Diagnostics {
  traffic: TrafficRecorder;
  stderr: StderrRecorder;
}

/** Answers a server's `sampling/createMessage` request on behalf of the named server. */
export type SamplingBridge = (
  server: string,
  request: CreateMessageRequestParams,
) => Promise<CreateMessageResult>;

/** A server connection that was closed for good (see `ServerRegistry.onConnectionClosed`). */
export interface ClosedConnection {
  /** The server's id: the same after an edit, so compare `connection` too. */
  id: string;
  /** The server's name when the connection was opened. */
  name: string;
  connection: MCP;
}

/** How long a health check waits for the server's answer. */
const PING_TIMEOUT_MS = 5000;

const serverNamePattern = /^[A-Za-z0-9][A-Za-z0-9-]{0,39}$/;

/** Checks a server name: it becomes the tool-name prefix the model sees, so vendors' rules apply. */
export function validateServerName(name: unknown): string {
  if (typeof name !== "string" || !serverNamePattern.test(name)) {
    throw new JunctionError(
      "mcp-config-invalid",
      `A server name must be 1–40 letters, digits or "-", starting with a letter or digit (it prefixes tool names as name_tool); got ${JSON.stringify(name)}.`,
    );
  }
  return name;
}

/** How {@link parseServerEntry} expands an entry and whom it tells about it. */
export interface ParseServerEntryOptions {
  /** The variables `${VAR}` may expand to (the ones the person allowed). @default none */
  environment?: Record<string, string>;
  /** Receives every value put in for a `${VAR}`, to be redacted from what the page sees. */
  substituted?: (value: string) => void;
  /**
   * Receives each thing the loader warns about (a key it does not read, with a "did you mean"),
   * as a message for the person who typed the entry. @default ignored
   */
  warned?: (message: string) => void;
}

/**
 * Turns one `mcpServers` entry (what Claude Desktop, Cursor and VS Code users already have)
 * into an `MCPConfig`, with the mcp-client's own loader and its error messages. `${VAR}` expands
 * only against `environment` (the variables the person allowed), never the whole process
 * environment. The loader's warnings go to `warned`, never to the process's warnings: the person
 * at the page typed the entry, not whoever reads the playground's stderr.
 */
export function parseServerEntry(
  name: string,
  entry: unknown,
  options: ParseServerEntryOptions = {},
): MCPConfig {
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
    throw new JunctionError("mcp-config-invalid", `The config of server ${name} must be a JSON object.`);
  }
  const configs = loadMCPConfig({ mcpServers: { [name]: entry } }, options.environment ?? {}, {
    unresolvedVariable,
    onSubstitution: ({ value }) => options.substituted?.(value),
    onWarning: ({ message }) => options.warned?.(message),
  });
  const config = configs[name];
  if (!config)
    throw new JunctionError("mcp-config-invalid", `The config of server ${name} was not understood.`);
  return config;
}

/** The playground's MCP connections: one per stored server, reconnected by the client on crashes. */
export class ServerRegistry {
  readonly #entries = new Map<string, Entry>();
  readonly #logs: LogBuffer;
  readonly #diagnostics = new Map<string, Diagnostics>();
  readonly #store: Store;
  readonly #environment: Record<string, string>;
  readonly #redactor: SecretRedactor;
  readonly #dataDir: DataDir;
  readonly #hub: EventHub;
  readonly #elicitation: ElicitationBroker;
  readonly #sampling?: SamplingBridge;
  readonly #closedListeners = new Set<(closed: ClosedConnection) => void>();

  readonly #instrument: (config: MCPConfig) => MCPConfig;

  constructor(options: {
    store: Store;
    dataDir: DataDir;
    hub: EventHub;
    elicitation: ElicitationBroker;
    sampling?: SamplingBridge;
    /** The variables configs may expand (`--allow-env`); nothing else of the environment. */
    environment: Record<string, string>;
    /** Learns every expanded value, to keep it out of errors, logs and API answers. */
    redactor: SecretRedactor;
    /** Wraps each connection's config, for tracing (`TraceStore.telemetry.instrumentMCP`). */
    instrument?: (config: MCPConfig) => MCPConfig;
  }) {
    this.#instrument = options.instrument ?? ((config) => config);
    this.#sampling = options.sampling;
    this.#environment = options.environment;
    this.#redactor = options.redactor;
    this.#logs = new LogBuffer({ publish: (event) => this.#hub.publish(event) });
    this.#store = options.store;
    this.#dataDir = options.dataDir;
    this.#hub = options.hub;
    this.#elicitation = options.elicitation;
  }

  /** Adds the default servers on first run, then connects every enabled server. */
  async start(options: { seedDefaults?: boolean } = {}): Promise<void> {
    if (options.seedDefaults !== false && !this.#store.seeded) {
      for (const name of BUILTIN_SERVERS) {
        if (!this.#store.findServerByName(name)) this.#store.addServer({ name, config: {}, builtin: name });
      }
      this.#store.markSeeded();
    }
    for (const stored of this.#store.listServers()) {
      this.#entries.set(stored.id, { stored, status: stored.enabled ? "connecting" : "disabled" });
    }
    await Promise.all([...this.#entries.keys()].map((id) => this.#connect(id)));
  }

  list(): ServerStatus[] {
    return this.#store.listServers().map((stored) => this.#status(stored));
  }

  status(id: string): ServerStatus {
    return this.#status(this.#require(id).stored);
  }

  /**
   * Calls `listener` whenever a server's connection is closed for good: the server was edited,
   * restarted, disabled or removed, or the playground stops (not while the client itself
   * reconnects a crashed process). What was bound to that connection (an open MCP App, its
   * queued approvals, its questions to the person) ends with it. Returns the unsubscribe.
   */
  onConnectionClosed(listener: (closed: ClosedConnection) => void): () => void {
    this.#closedListeners.add(listener);
    return () => this.#closedListeners.delete(listener);
  }

  /** The connected servers, each with its name as the tool prefix and whether its tools are deferred. */
  connected(): { name: string; mcp: MCP; deferTools: boolean }[] {
    const result: { name: string; mcp: MCP; deferTools: boolean }[] = [];
    for (const entry of this.#entries.values()) {
      if (entry.mcp && entry.status === "connected") {
        result.push({ name: entry.stored.name, mcp: entry.mcp, deferTools: entry.stored.deferTools });
      }
    }
    return result;
  }

  /**
   * Whether the model gets the server's tools only once it finds them with the tool search. Takes
   * effect from the next turn; the connection stays as it is.
   */
  setDeferTools(id: string, deferTools: unknown): ServerStatus {
    const entry = this.#require(id);
    if (typeof deferTools !== "boolean") {
      throw new JunctionError("invalid-argument", 'Send {"deferTools": true} or {"deferTools": false}.');
    }
    this.#store.setServerDeferTools(id, deferTools);
    entry.stored = { ...entry.stored, deferTools };
    this.#hub.publish({ type: "servers-changed" });
    return this.status(id);
  }

  /** The connection of a server, or a clear error naming why there is none. */
  client(id: string): MCP {
    const entry = this.#require(id);
    if (!entry.mcp || entry.status !== "connected") {
      throw new JunctionError(
        "mcp-not-connected",
        `Server ${entry.stored.name} is not connected${entry.error ? `: ${entry.error}` : "."}`,
      );
    }
    return entry.mcp;
  }

  /**
   * The server's last log messages (`notifications/message`), oldest first, and how many older
   * ones were dropped to keep the list bounded.
   */
  logs(id: string): { entries: ServerLogEntry[]; dropped: number } {
    this.#require(id);
    return this.#logs.get(id);
  }

  /** The server's last JSON-RPC messages (after `since`, a `seq`), secrets masked. */
  traffic(id: string, since = 0): TrafficLog {
    this.#require(id);
    return this.#diagnostics.get(id)?.traffic.read(since) ?? { entries: [], dropped: 0 };
  }

  /** What the server wrote to stderr lately (stdio servers), secrets masked. */
  stderr(id: string): StderrLog {
    this.#require(id);
    return (
      this.#diagnostics.get(id)?.stderr.read((text) => this.#redactor.redact(text)) ?? {
        text: "",
        dropped: 0,
      }
    );
  }

  /**
   * Pings the server (waiting at most {@link PING_TIMEOUT_MS}) and keeps the outcome as its health:
   * the round trip when it answers, `unsupported` when it answers that it has no `ping`
   * (JSON-RPC -32601), `reconnecting` while the client restarts it, `failed` otherwise. A change
   * of health is announced (`servers-changed`), so every page's list follows.
   */
  async ping(id: string): Promise<ServerHealth> {
    const entry = this.#require(id);
    const mcp = this.client(id);
    const at = () => new Date().toISOString();
    let health: ServerHealth;
    const started = performance.now();
    // While the client restarts the server a ping waits for it: briefly, so the page hears soon.
    const timeoutMs = mcp.connected ? PING_TIMEOUT_MS : 1000;
    try {
      await mcp.ping({ timeoutMs });
      health = { state: "ok", at: at(), latencyMs: Math.round((performance.now() - started) * 10) / 10 };
    } catch (error) {
      const message = this.#redactor.redact(errorMessage(error));
      const unsupported = JunctionError.isInstance(error) && error.jsonRPCCode === -32601;
      const reconnecting = !unsupported && /still reconnecting|reconnecting when/i.test(message);
      health = {
        state: unsupported ? "unsupported" : reconnecting ? "reconnecting" : "failed",
        at: at(),
        error: unsupported
          ? "This server does not answer ping (method not found)."
          : reconnecting
            ? "The server stopped; the client is restarting it."
            : message,
      };
    }
    if (this.#entries.get(id) !== entry) return health;
    const changed = entry.health?.state !== health.state;
    entry.health = health;
    if (changed) this.#hub.publish({ type: "servers-changed" });
    return health;
  }

  /** `value` with every value a config expanded replaced by a mask, for anything the page sees. */
  redact<T>(value: T): T {
    return this.#redactor.redactValue(value);
  }

  /** Text with every value a config expanded replaced by a mask. */
  redactText(text: string): string {
    return this.#redactor.redact(text);
  }

  async add(name: unknown, entry: unknown): Promise<ServerStatus> {
    const checkedName = validateServerName(name);
    if (this.#store.findServerByName(checkedName)) {
      throw new JunctionError("mcp-config-invalid", `A server named ${checkedName} already exists.`);
    }
    this.#check(checkedName, entry);
    const stored = this.#store.addServer({ name: checkedName, config: entry as Record<string, unknown> });
    this.#entries.set(stored.id, { stored, status: "connecting" });
    this.#hub.publish({ type: "servers-changed" });
    await this.#connect(stored.id);
    return this.status(stored.id);
  }

  /** Replaces a server's name, config and whether it is on (unchecked input: checked here). */
  async update(
    id: string,
    change: { name: unknown; config: unknown; enabled?: unknown },
  ): Promise<ServerStatus> {
    const { name, enabled = true } = change;
    let entry = change.config;
    const current = this.#require(id);
    const checkedName = validateServerName(name);
    entry = restoreRedacted(entry, this.#entryOf(current.stored));
    const other = this.#store.findServerByName(checkedName);
    if (other && other.id !== id) {
      throw new JunctionError("mcp-config-invalid", `A server named ${checkedName} already exists.`);
    }
    this.#check(checkedName, entry);
    await this.#disconnect(current);
    this.#store.updateServer(id, {
      name: checkedName,
      config: entry as Record<string, unknown>,
      enabled: enabled !== false,
    });
    const stored = this.#store.getServer(id)!;
    this.#entries.set(id, { stored, status: stored.enabled ? "connecting" : "disabled" });
    this.#hub.publish({ type: "servers-changed" });
    await this.#connect(id);
    return this.status(id);
  }

  async remove(id: string): Promise<void> {
    const entry = this.#require(id);
    await this.#disconnect(entry);
    this.#entries.delete(id);
    this.#logs.delete(id);
    this.#diagnostics.delete(id);
    this.#redactor.delete(id);
    this.#store.removeServer(id);
    this.#hub.publish({ type: "servers-changed" });
  }

  async restart(id: string): Promise<ServerStatus> {
    const entry = this.#require(id);
    await this.#disconnect(entry);
    entry.status = entry.stored.enabled ? "connecting" : "disabled";
    entry.error = undefined;
    this.#hub.publish({ type: "servers-changed" });
    await this.#connect(id);
    return this.status(id);
  }

  /**
   * Imports an `mcpServers` (or VS Code `servers`) JSON document. Every entry is checked
   * first, so a broken file adds nothing; names already present are reported, not replaced.
   */
  async import(document: unknown): Promise<ServerImport> {
    let parsed = document;
    if (typeof document === "string") {
      try {
        parsed = JSON.parse(document);
      } catch (error) {
        throw new JunctionError(
          "mcp-config-invalid",
          `The imported file is not JSON: ${errorMessage(error)}`,
        );
      }
    }
    if (typeof parsed !== "object" || parsed === null) {
      throw new JunctionError(
        "mcp-config-invalid",
        "The imported file must be a JSON object with mcpServers.",
      );
    }
    const record = parsed as { mcpServers?: unknown; servers?: unknown };
    const servers = record.mcpServers ?? record.servers;
    if (typeof servers !== "object" || servers === null || Array.isArray(servers)) {
      throw new JunctionError(
        "mcp-config-invalid",
        'The imported file has no "mcpServers" (or VS Code "servers") object.',
      );
    }
    const entries = Object.entries(servers as Record<string, unknown>);
    const warnings: string[] = [];
    for (const [name, entry] of entries) {
      validateServerName(name);
      warnings.push(...this.#check(name, entry));
    }
    const added: string[] = [];
    const skipped: { name: string; reason: string }[] = [];
    const ids: string[] = [];
    for (const [name, entry] of entries) {
      if (this.#store.findServerByName(name)) {
        skipped.push({ name, reason: "a server with this name already exists" });
        continue;
      }
      const stored = this.#store.addServer({ name, config: entry as Record<string, unknown> });
      this.#entries.set(stored.id, { stored, status: "connecting" });
      ids.push(stored.id);
      added.push(name);
    }
    this.#hub.publish({ type: "servers-changed" });
    await Promise.all(ids.map((id) => this.#connect(id)));
    return { added, skipped, warnings };
  }

  async close(): Promise<void> {
    this.#logs.close();
    await Promise.all([...this.#entries.values()].map((entry) => this.#disconnect(entry)));
  }

  /**
   * Checks an entry as it will be connected and returns the loader's warnings about it; neither
   * an error nor a warning ever quotes an expanded value.
   */
  #check(name: string, entry: unknown): string[] {
    const values: string[] = [];
    const warnings: string[] = [];
    try {
      parseServerEntry(name, entry, {
        environment: this.#environment,
        substituted: (value) => values.push(value),
        warned: (message) => warnings.push(message),
      });
      return warnings.map((message) => this.#redactor.redact(message));
    } catch (error) {
      if (!JunctionError.isInstance(error)) throw error;
      const scrub = new Set(values);
      let message = error.message;
      for (const value of scrub) if (value.length > 0) message = message.replaceAll(value, REDACTED);
      throw new JunctionError(error.code, this.#redactor.redact(message));
    }
  }

  #require(id: string): Entry {
    const entry = this.#entries.get(id);
    if (!entry) throw new JunctionError("invalid-argument", `No server with id ${id}.`);
    return entry;
  }

  #entryOf(stored: StoredServer): Record<string, unknown> {
    return isBuiltinServer(stored.builtin)
      ? builtinServerEntry(stored.builtin, { sandbox: this.#dataDir.sandbox, dataRoot: this.#dataDir.root })
      : stored.config;
  }

  #status(stored: StoredServer): ServerStatus {
    const entry = this.#entries.get(stored.id);
    const mcp = entry?.status === "connected" ? entry.mcp : undefined;
    // A server whose restarts gave up is down, not reconnecting: its last health check says so.
    const gaveUp = mcp && !mcp.connected && entry?.health?.state === "failed";
    const error = gaveUp ? entry?.health?.error : entry?.error;
    return {
      id: stored.id,
      name: stored.name,
      config: redactEntry(this.#entryOf(stored)),
      builtin: stored.builtin,
      enabled: stored.enabled,
      deferTools: stored.deferTools,
      status: gaveUp
        ? "error"
        : entry?.status === "connected" && mcp && !mcp.connected
          ? "reconnecting"
          : (entry?.status ?? "connecting"),
      ...(error ? { error } : {}),
      ...(entry?.warnings?.length ? { warnings: entry.warnings } : {}),
      ...(entry?.health && entry.status === "connected" ? { health: entry.health } : {}),
      ...(mcp
        ? { serverInfo: mcp.serverInfo, instructions: mcp.instructions, capabilities: mcp.capabilities }
        : {}),
    };
  }

  async #connect(id: string): Promise<void> {
    const entry = this.#entries.get(id);
    if (!entry?.stored.enabled) return;
    const name = entry.stored.name;
    let config: MCPConfig;
    const secrets: string[] = [];
    const warnings: string[] = [];
    try {
      config = parseServerEntry(name, this.#entryOf(entry.stored), {
        environment: this.#environment,
        substituted: (value) => secrets.push(value),
        warned: (message) => warnings.push(message),
      });
    } catch (error) {
      entry.status = "error";
      entry.error = this.#redactor.redact(errorMessage(error));
      this.#hub.publish({ type: "servers-changed" });
      return;
    }
    this.#redactor.set(id, [...secrets, ...literalHeaderSecrets(config)]);
    entry.warnings = warnings.map((message) => this.#redactor.redact(message));
    let diagnostics = this.#diagnostics.get(id);
    if (!diagnostics) {
      diagnostics = {
        traffic: new TrafficRecorder((text) => this.#redactor.redact(text)),
        stderr: new StderrRecorder(),
      };
      this.#diagnostics.set(id, diagnostics);
    }
    const { traffic, stderr } = diagnostics;
    // The revision this server negotiated before with the same config: spares the probe on restart.
    const digest = configDigest(config);
    const protocolVersionHint = this.#store.getProtocolVersion(id, digest);
    const mcp = new MCP(
      this.#instrument({
        ...config,
        ...(protocolVersionHint ? { protocolVersionHint } : {}),
        name,
        // What went over the wire, for the traffic view, and the server's stderr at any time.
        onMessage: (message) => traffic.record(message),
        ...(config.transport === "stdio" ? { onStderr: (chunk: string) => stderr.add(chunk) } : {}),
        roots: [{ uri: `file://${this.#dataDir.sandbox}`, name: "sandbox" }],
        // The playground renders MCP Apps (tools' ui:// resources) in the inspector and the chat.
        extensions: { [MCP_APPS_EXTENSION]: MCP_APPS_CAPABILITY },
        handlers: {
          elicitation: (params) => this.#elicitation.ask(name, params),
          ...(this.#sampling
            ? { sampling: (params: CreateMessageRequestParams) => this.#sampling!(name, params) }
            : {}),
          log: (message) =>
            this.#logs.add(
              id,
              name,
              this.#redactor.redactValue({
                level: String(message.level).slice(0, 40),
                ...(message.logger === undefined ? {} : { logger: String(message.logger).slice(0, 200) }),
                data: capLogData(message.data),
              }),
            ),
        },
      } as MCPConfig),
    );
    entry.mcp = mcp;
    entry.status = "connecting";
    entry.error = undefined;
    // A new connection's health is checked afresh.
    entry.health = undefined;
    try {
      await mcp.connect();
      if (mcp.protocolVersion) this.#store.setProtocolVersion(id, digest, mcp.protocolVersion);
      if (this.#entries.get(id) !== entry || entry.mcp !== mcp) {
        await mcp.close();
        return;
      }
      entry.status = "connected";
    } catch (error) {
      entry.status = "error";
      entry.error = this.#redactor.redact(errorMessage(error));
      entry.mcp = undefined;
      // Closing what failed to connect: the connect failure is already in entry.error, and one from the
      // cleanup adds nothing.
      await mcp.close().catch(() => undefined);
    }
    this.#hub.publish({ type: "servers-changed" });
  }

  async #disconnect(entry: Entry): Promise<void> {
    const mcp = entry.mcp;
    entry.mcp = undefined;
    if (!mcp) return;
    for (const listener of this.#closedListeners) {
      listener({ id: entry.stored.id, name: entry.stored.name, connection: mcp });
    }
    // The user removed or disconnected the server: it is gone from the list either way, and close() failing
    // leaves nothing to act on.
    await mcp.close().catch(() => undefined);
  }
}

const redacted = REDACTED;

/** Where a server's secrets go: its program and arguments, or its URL. */
function destinationOf(entry: Record<string, unknown>): string {
  return JSON.stringify([
    entry.type ?? null,
    entry.command ?? null,
    entry.args ?? null,
    entry.cwd ?? null,
    entry.url ?? null,
  ]);
}

/**
 * Puts back the secret values an edited entry still shows as redacted, only while the entry
 * still goes where it went: a masked value sent with a new command, arguments or URL is refused,
 * so a stored secret never follows a server to a destination the person did not give it to.
 */
function restoreRedacted(entry: unknown, previous: Record<string, unknown>): unknown {
  if (typeof entry !== "object" || entry === null) return entry;
  const copy: Record<string, unknown> = { ...(entry as Record<string, unknown>) };
  const moved = destinationOf(copy) !== destinationOf(previous);
  for (const key of ["env", "headers"]) {
    const value = copy[key];
    const before = (previous[key] ?? {}) as Record<string, unknown>;
    if (typeof value !== "object" || value === null) continue;
    copy[key] = Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([name, v]) => {
        if (v !== redacted || !Object.hasOwn(before, name)) return [name, v];
        if (moved) {
          throw new JunctionError(
            "mcp-config-invalid",
            `The ${key === "env" ? "env variable" : "header"} ${name} still shows its hidden value (${redacted}), but the server's command, arguments or URL changed: type the value again. A stored secret never follows a server to a new destination.`,
          );
        }
        return [name, before[name]];
      }),
    );
  }
  return copy;
}

/**
 * Header values written into a config as they are (not through `${VAR}`): credentials too, to be
 * masked wherever a server echoes them (an error, a log, the traffic view). A `Bearer`/`Basic`
 * scheme's credential is masked on its own as well. Literal env values are not: they are often
 * paths and names that would mask a server's ordinary output.
 */
function literalHeaderSecrets(config: MCPConfig): string[] {
  if (config.transport !== "http" && config.transport !== "sse") return [];
  const values: string[] = [];
  for (const value of Object.values(config.headers ?? {})) {
    if (typeof value !== "string") continue;
    values.push(value);
    const credential = /^\s*(?:bearer|basic|token)\s+(\S+)\s*$/i.exec(value)?.[1];
    if (credential) values.push(credential);
  }
  return values;
}

/** Header and env values are secrets: the UI is told which exist, never what they are. */
export function redactEntry(entry: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...entry };
  for (const key of ["env", "headers"]) {
    const value = copy[key];
    if (typeof value === "object" && value !== null) {
      copy[key] = Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([name, v]) => [
          name,
          typeof v === "string" && /^\$\{[^}]+\}$/.test(v) ? v : redacted,
        ]),
      );
    }
  }
  return copy;
}
