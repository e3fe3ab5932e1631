import { createHash, randomUUID } from "node:crypto";
import { DatabaseSync } from "node:sqlite";
import type { EmbeddingCache, RunState } from "@junction/core";
import type { Message } from "@junction/types";
import type { TranscriptItem } from "../shared/api-types.js";
import type { TraceSpan } from "../shared/trace-waterfall.js";
import { type CodeModeSetting, isCodeModeSetting, storedCodeMode } from "./code-mode-setting.js";
import { restrictDatabaseFiles } from "./data-dir.js";

/** Run traces kept on disk; older ones go as new ones come. */
const KEPT_TRACES = 100;
/** The most span JSON kept on disk, in characters; the newest trace always stays. */
const KEPT_TRACE_CHARACTERS = 16 * 1024 * 1024;

/** A server as the user configured it. `config` is an MCPConfig without in-process parts. */
export interface StoredServer {
  id: string;
  name: string;
  config: Record<string, unknown>;
  enabled: boolean;
  /** Set for the default servers, whose command is resolved from node_modules at run time. */
  builtin: string | null;
  createdAt: string;
  /** The model gets this server's tools only once it finds them with the tool search (core's `defer`). */
  deferTools: boolean;
}

/** One entry of a conversation as the UI shows it. */
/** One entry of a conversation's transcript: the shared contract. */
export type { TranscriptItem } from "../shared/api-types.js";

export interface StoredConversation {
  id: string;
  title: string;
  provider: string;
  model: string;
  createdAt: string;
  updatedAt: string;
  messages: Message[];
  transcript: TranscriptItem[];
  /**
   * The conversation's run that stopped for approvals (a core `RunState`, as JSON), until it is
   * resumed or the conversation goes on: what makes a pending approval survive a restart.
   */
  runState: RunState | null;
  /** The JSON Schema every answer must match (core's `output`), or null for prose answers. */
  outputSchema: Record<string, unknown> | null;
  /** Where the model's programs run, if it may write them (core's code mode). `off` by default. */
  codeMode: CodeModeSetting;
  /**
   * The code mode `runState`'s run ran in, which its resume runs in too; null with no run state,
   * or for one stored before the mode was kept beside it.
   */
  runStateCodeMode: CodeModeSetting | null;
}

/** The playground's SQLite database (node:sqlite): servers, conversations and settings. */
export class Store {
  readonly #db: DatabaseSync;

  constructor(file: string) {
    // Header and env secrets live here: 0600 before SQLite writes anything (and for its -wal/-shm).
    restrictDatabaseFiles(file);
    this.#db = new DatabaseSync(file);
    this.#db.exec(`
      PRAGMA journal_mode = WAL;
      CREATE TABLE IF NOT EXISTS servers (
        id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, config TEXT NOT NULL,
        enabled INTEGER NOT NULL DEFAULT 1, builtin TEXT, created_at TEXT NOT NULL, position INTEGER NOT NULL
      );
      CREATE TABLE IF NOT EXISTS conversations (
        id TEXT PRIMARY KEY, title TEXT NOT NULL, provider TEXT NOT NULL, model TEXT NOT NULL,
        created_at TEXT NOT NULL, updated_at TEXT NOT NULL, messages TEXT NOT NULL, transcript TEXT NOT NULL
      );
      CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS protocol_versions (
        server_id TEXT PRIMARY KEY, config_digest TEXT NOT NULL, version TEXT NOT NULL
      );
      CREATE TABLE IF NOT EXISTS traces (trace_id TEXT PRIMARY KEY, spans TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS tool_embeddings (
        model TEXT NOT NULL, digest TEXT NOT NULL, vector BLOB NOT NULL, PRIMARY KEY (model, digest)
      );
    `);
    // Stores made before runs could stop for approvals have no run_state column yet.
    const columns = this.#db.prepare("PRAGMA table_info(conversations)").all() as { name: string }[];
    for (const column of ["run_state", "output_schema"]) {
      if (!columns.some((existing) => existing.name === column)) {
        this.#db.exec(`ALTER TABLE conversations ADD COLUMN ${column} TEXT`);
      }
    }
    if (!columns.some((existing) => existing.name === "code_mode")) {
      this.#db.exec("ALTER TABLE conversations ADD COLUMN code_mode INTEGER NOT NULL DEFAULT 0");
    }
    // Stores made before programs could run on the vendor kept code mode as a boolean: on was the
    // sandbox. The boolean stays written (on for either runtime) for an older playground.
    if (!columns.some((existing) => existing.name === "code_mode_setting")) {
      this.#db.exec(`
        BEGIN;
        ALTER TABLE conversations ADD COLUMN code_mode_setting TEXT NOT NULL DEFAULT 'off';
        UPDATE conversations SET code_mode_setting = 'sandbox' WHERE code_mode = 1;
        COMMIT;
      `);
    }
    if (!columns.some((existing) => existing.name === "run_state_code_mode")) {
      this.#db.exec("ALTER TABLE conversations ADD COLUMN run_state_code_mode TEXT");
    }
    const serverColumns = this.#db.prepare("PRAGMA table_info(servers)").all() as { name: string }[];
    if (!serverColumns.some((existing) => existing.name === "defer_tools")) {
      this.#db.exec("ALTER TABLE servers ADD COLUMN defer_tools INTEGER NOT NULL DEFAULT 0");
    }
    restrictDatabaseFiles(file);
  }

  /** Whether the default servers were ever added (so removing them sticks). */
  get seeded(): boolean {
    return this.getSetting("seeded") === "1";
  }

  markSeeded(): void {
    this.setSetting("seeded", "1");
  }

  listServers(): StoredServer[] {
    const rows = this.#db.prepare("SELECT * FROM servers ORDER BY position, created_at").all();
    return rows.map((row) => toServer(row));
  }

  getServer(id: string): StoredServer | undefined {
    const row = this.#db.prepare("SELECT * FROM servers WHERE id = ?").get(id);
    return row ? toServer(row) : undefined;
  }

  findServerByName(name: string): StoredServer | undefined {
    const row = this.#db.prepare("SELECT * FROM servers WHERE name = ?").get(name);
    return row ? toServer(row) : undefined;
  }

  addServer(input: { name: string; config: Record<string, unknown>; builtin?: string | null }): StoredServer {
    const id = randomUUID();
    const createdAt = new Date().toISOString();
    const position = Number(
      (this.#db.prepare("SELECT COALESCE(MAX(position), 0) + 1 AS p FROM servers").get() as { p: number }).p,
    );
    this.#db
      .prepare(
        "INSERT INTO servers (id, name, config, enabled, builtin, created_at, position) VALUES (?, ?, ?, 1, ?, ?, ?)",
      )
      .run(id, input.name, JSON.stringify(input.config), input.builtin ?? null, createdAt, position);
    return this.getServer(id)!;
  }

  updateServer(id: string, input: { name: string; config: Record<string, unknown>; enabled: boolean }): void {
    this.#db
      .prepare("UPDATE servers SET name = ?, config = ?, enabled = ?, builtin = NULL WHERE id = ?")
      .run(input.name, JSON.stringify(input.config), input.enabled ? 1 : 0, id);
  }

  /** Whether the model gets the server's tools only through the tool search; no reconnect needed. */
  setServerDeferTools(id: string, deferTools: boolean): void {
    this.#db.prepare("UPDATE servers SET defer_tools = ? WHERE id = ?").run(deferTools ? 1 : 0, id);
  }

  removeServer(id: string): void {
    this.#db.prepare("DELETE FROM servers WHERE id = ?").run(id);
    this.#db.prepare("DELETE FROM protocol_versions WHERE server_id = ?").run(id);
  }

  /**
   * The protocol revision a server negotiated last, if its config is still the one it was
   * negotiated with (`configDigest`): a hint that spares the next start the `server/discover`
   * probe. A changed config, or no connect yet, gives undefined.
   */
  getProtocolVersion(id: string, digest: string): string | undefined {
    const row = this.#db
      .prepare("SELECT version FROM protocol_versions WHERE server_id = ? AND config_digest = ?")
      .get(id, digest) as { version: string } | undefined;
    return row?.version;
  }

  /** Keeps the revision a server just negotiated with the config of that digest. */
  setProtocolVersion(id: string, digest: string, version: string): void {
    this.#db
      .prepare(
        "INSERT INTO protocol_versions (server_id, config_digest, version) VALUES (?, ?, ?) ON CONFLICT(server_id) DO UPDATE SET config_digest = excluded.config_digest, version = excluded.version",
      )
      .run(id, digest, version);
  }

  listConversations(): Omit<
    StoredConversation,
    "messages" | "transcript" | "runState" | "outputSchema" | "codeMode" | "runStateCodeMode"
  >[] {
    const rows = this.#db
      .prepare(
        "SELECT id, title, provider, model, created_at, updated_at FROM conversations ORDER BY updated_at DESC",
      )
      .all() as Record<string, string>[];
    return rows.map((row) => ({
      id: row.id!,
      title: row.title!,
      provider: row.provider!,
      model: row.model!,
      createdAt: row.created_at!,
      updatedAt: row.updated_at!,
    }));
  }

  getConversation(id: string): StoredConversation | undefined {
    const row = this.#db.prepare("SELECT * FROM conversations WHERE id = ?").get(id) as
      | Record<string, string>
      | undefined;
    if (!row) return undefined;
    return {
      id: row.id!,
      title: row.title!,
      provider: row.provider!,
      model: row.model!,
      createdAt: row.created_at!,
      updatedAt: row.updated_at!,
      messages: JSON.parse(row.messages!) as Message[],
      transcript: JSON.parse(row.transcript!) as TranscriptItem[],
      runState: row.run_state ? (JSON.parse(row.run_state) as RunState) : null,
      outputSchema: row.output_schema ? (JSON.parse(row.output_schema) as Record<string, unknown>) : null,
      codeMode: storedCodeMode(row.code_mode_setting, row.code_mode),
      runStateCodeMode: isCodeModeSetting(row.run_state_code_mode) ? row.run_state_code_mode : null,
    };
  }

  createConversation(input: {
    title: string;
    provider: string;
    model: string;
    /** @default "off" */
    codeMode?: CodeModeSetting;
  }): StoredConversation {
    const id = randomUUID();
    const now = new Date().toISOString();
    const codeMode = input.codeMode ?? "off";
    this.#db
      .prepare(
        "INSERT INTO conversations (id, title, provider, model, created_at, updated_at, messages, transcript, code_mode, code_mode_setting) VALUES (?, ?, ?, ?, ?, ?, '[]', '[]', ?, ?)",
      )
      .run(id, input.title, input.provider, input.model, now, now, codeMode === "off" ? 0 : 1, codeMode);
    return this.getConversation(id)!;
  }

  saveConversation(conversation: StoredConversation): void {
    this.#db
      .prepare(
        "UPDATE conversations SET title = ?, provider = ?, model = ?, updated_at = ?, messages = ?, transcript = ?, run_state = ?, output_schema = ?, code_mode = ?, code_mode_setting = ?, run_state_code_mode = ? WHERE id = ?",
      )
      .run(
        conversation.title,
        conversation.provider,
        conversation.model,
        new Date().toISOString(),
        JSON.stringify(conversation.messages),
        JSON.stringify(conversation.transcript),
        conversation.runState ? JSON.stringify(conversation.runState) : null,
        conversation.outputSchema ? JSON.stringify(conversation.outputSchema) : null,
        conversation.codeMode === "off" ? 0 : 1,
        conversation.codeMode,
        conversation.runState ? conversation.runStateCodeMode : null,
        conversation.id,
      );
  }

  /** Removes a conversation and the traces of its turns. */
  removeConversation(id: string): void {
    const traceIds = (this.getConversation(id)?.transcript ?? []).flatMap((item) =>
      item.kind === "trace" ? [item.traceId] : [],
    );
    const removeTrace = this.#db.prepare("DELETE FROM traces WHERE trace_id = ?");
    for (const traceId of traceIds) removeTrace.run(traceId);
    this.#db.prepare("DELETE FROM conversations WHERE id = ?").run(id);
  }

  /**
   * Keeps a run's trace (its spans, names, timings, tokens and errors, no content) so a turn's
   * "Trace of this run" outlives the process. Saving a trace again replaces its spans and keeps
   * its age. Bounded: the last 100 traces, and at most 16 M characters of spans (the newest
   * always stays); older ones go.
   */
  saveTrace(traceId: string, spans: readonly TraceSpan[]): void {
    this.#db
      .prepare(
        "INSERT INTO traces (trace_id, spans) VALUES (?, ?) ON CONFLICT(trace_id) DO UPDATE SET spans = excluded.spans",
      )
      .run(traceId, JSON.stringify(spans));
    // rowid orders traces by when they were first saved: an update keeps it.
    this.#db
      .prepare(
        `DELETE FROM traces WHERE rowid IN (
          SELECT rowid FROM (
            SELECT rowid, ROW_NUMBER() OVER newest AS position, SUM(LENGTH(spans)) OVER newest AS total
            FROM traces WINDOW newest AS (ORDER BY rowid DESC)
          ) WHERE position > 1 AND (position > ? OR total > ?)
        )`,
      )
      .run(KEPT_TRACES, KEPT_TRACE_CHARACTERS);
  }

  /** A kept trace's spans, or undefined when it was never kept or is gone. */
  getTrace(traceId: string): TraceSpan[] | undefined {
    const row = this.#db.prepare("SELECT spans FROM traces WHERE trace_id = ?").get(traceId) as
      | { spans: string }
      | undefined;
    return row ? (JSON.parse(row.spans) as TraceSpan[]) : undefined;
  }

  /**
   * The tool search's vectors for one embedding model (`model`, for example
   * `openai:text-embedding-3-small`), by tool digest: kept across turns and restarts, so a tool is
   * embedded once per model until its definition changes. Vectors are stored as float64 bytes.
   */
  embeddingCache(model: string): EmbeddingCache {
    const select = this.#db.prepare("SELECT vector FROM tool_embeddings WHERE model = ? AND digest = ?");
    const insert = this.#db.prepare(
      "INSERT INTO tool_embeddings (model, digest, vector) VALUES (?, ?, ?) ON CONFLICT(model, digest) DO UPDATE SET vector = excluded.vector",
    );
    return {
      get: (digest) => {
        const row = select.get(model, digest) as { vector: Uint8Array } | undefined;
        if (!row) return undefined;
        const bytes = row.vector;
        return [
          ...new Float64Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)),
        ];
      },
      set: (digest, vector) => {
        insert.run(model, digest, new Uint8Array(Float64Array.from(vector).buffer));
      },
    };
  }

  /** How many tool vectors the store keeps for `model`. */
  countEmbeddings(model: string): number {
    return (
      this.#db.prepare("SELECT COUNT(*) AS count FROM tool_embeddings WHERE model = ?").get(model) as {
        count: number;
      }
    ).count;
  }

  getSetting(key: string): string | undefined {
    const row = this.#db.prepare("SELECT value FROM settings WHERE key = ?").get(key) as
      | { value: string }
      | undefined;
    return row?.value;
  }

  setSetting(key: string, value: string | undefined): void {
    if (value === undefined) this.#db.prepare("DELETE FROM settings WHERE key = ?").run(key);
    else
      this.#db
        .prepare("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = ?")
        .run(key, value, value);
  }

  close(): void {
    this.#db.close();
  }
}

/** A digest of a server's resolved config: a remembered protocol revision holds only while it matches. */
export function configDigest(config: object): string {
  return createHash("sha256").update(JSON.stringify(config)).digest("hex");
}

function toServer(row: unknown): StoredServer {
  const r = row as Record<string, string | number | null>;
  return {
    id: String(r.id),
    name: String(r.name),
    config: JSON.parse(String(r.config)) as Record<string, unknown>,
    enabled: Number(r.enabled) === 1,
    builtin: r.builtin === null ? null : String(r.builtin),
    createdAt: String(r.created_at),
    deferTools: Number(r.defer_tools) === 1,
  };
}
