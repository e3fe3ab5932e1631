// The playground's API contract: the shapes the server sends and the page receives. Types only
// (plus nothing at run time), imported by the server modules and, as types, by the page bundle,
// so the two cannot drift apart.
import type { PendingToolCall } from "@junction/core";
import type { ToolResult } from "@junction/types";

/** Where a chat tool call is in its life. */
export type ToolStatus = "running" | "done" | "denied" | "stopped" | "awaiting-approval";

/** A progress report a server sent for a running tool call (`notifications/progress`). */
export interface ToolProgressReport {
  progress: number;
  total?: number;
  message?: string;
}

/**
 * The program a call was made by (code mode): the program call's id, and the call's sequence
 * number in it (1 for its first call, 2 for its second, …), as core's events give them.
 */
export interface ProgramCallOf {
  id: string;
  sequence: number;
}

/** What a chat turn streams to the page (and the CLI). Plain JSON. */
export type ChatEvent =
  | { type: "run-start"; runId: string; provider: string; model: string }
  | { type: "text-delta"; text: string }
  | {
      /**
       * A model's call whose arguments are still streaming (core's `tool-input-delta`): `input` is
       * what has arrived so far read as an object (best effort, never validated; sent only when
       * something reads). Its `tool-call` follows with the complete arguments.
       */
      type: "tool-input-delta";
      id: string;
      name: string;
      server: string | null;
      input: Record<string, unknown>;
    }
  | {
      type: "tool-call";
      id: string;
      name: string;
      server: string | null;
      input: unknown;
      /**
       * Set for a call a program made: the program and the call's number in it; for a program the
       * model's vendor ran, also the vendor's tool that ran it (`name`) and its source (`program`)
       * when the vendor said them, so its card shows the program from its first call.
       */
      parent?: ProgramCallOf & { name?: string; program?: string };
      /** Set for a program call (core's `run_program`, code mode): the program's source, as the model wrote it. */
      program?: string;
    }
  | {
      type: "approval-request";
      id: string;
      name: string;
      server: string | null;
      input: unknown;
      /**
       * The call as a pending approval: the same item core's event, the stopped run's `pending`
       * and a served agent's input request carry (step, call id, tool and arguments digests).
       */
      item?: PendingToolCall;
    }
  | { type: "approval-answered"; id: string; approved: boolean }
  | ({ type: "tool-progress"; id: string } & ToolProgressReport)
  | {
      type: "tool-result";
      id: string;
      name: string;
      server: string | null;
      result: ToolResult;
      durationMs: number;
      /** Set when the result was too large or too deep to show whole: what was cut. */
      truncated?: string;
      /** How the call ended, as core says: `success`, `error`, or why it never ran (`denied`, …). */
      outcome?: string;
      /** Set for a call a program made, as on its `tool-call`. */
      parent?: ProgramCallOf;
    }
  | { type: "warning"; code: string; message: string }
  | { type: "error"; message: string; aborted: boolean }
  /** The run's trace in the playground's trace store (`GET /api/traces/:id`), just before `finish`. */
  | { type: "trace"; traceId: string }
  /** The run's structured answer, validated against the conversation's output schema. */
  | { type: "output"; output: unknown }
  /** A model request's estimated size (each step's), against the model's window. */
  | { type: "context"; size: ContextSize }
  | { type: "finish"; reason: string; text: string };

/** One entry of a conversation's transcript, as stored and as the page shows it. */
/** One model request's estimated size in tokens (core's `step-end` `request`). */
export interface ContextSize {
  /** The tool definitions offered. */
  tools: number;
  /** The system prompt and the messages, tool results aside. */
  history: number;
  /** The tool results in the messages. */
  toolResults: number;
  /** The model's context window. */
  contextWindow: number;
}

/** One tool call as the transcript keeps it: a call of the model's, or a call a program made. */
export interface ToolCallRecord {
  id: string;
  name: string;
  server: string | null;
  input: unknown;
  status: ToolStatus;
  result?: unknown;
  durationMs?: number;
  /** Set when the result was too large or too deep to keep whole: what was cut. */
  truncated?: string;
  /** The server's latest progress report while the call ran. */
  progress?: ToolProgressReport;
  /**
   * Set while the model's arguments are still streaming: `input` is what has arrived so far
   * (best effort, not validated). Gone once the call's arguments are complete.
   */
  inputStreaming?: true;
  /** How the call ended, as core said (`success`, `error`, `denied`, …), once it has a result. */
  outcome?: string;
  /** Why a person is asked when the approval policy alone would not have asked (the exfiltration guard). */
  reason?: string;
}

/** A call a program made (code mode), listed under its program's card. */
export interface ProgramCallRecord extends ToolCallRecord {
  /** 1 for the program's first call, 2 for its second, … */
  sequence: number;
  /**
   * The program's source as the call's approval request gave it (core's `item.parent.program`):
   * what the person is shown beside the call they approve, after a restart too.
   */
  program?: string;
}

/** A program call (core's `run_program`): its source, and the calls it made in sequence order. */
export interface ProgramRecord {
  source: string;
  calls: ProgramCallRecord[];
}

export type TranscriptItem =
  | { kind: "user"; text: string }
  | { kind: "assistant"; text: string }
  | ({
      kind: "tool";
      /** Set for a program call: what the program is and what it has called so far. */
      program?: ProgramRecord;
    } & ToolCallRecord)
  /** The run's structured answer (a conversation with an output schema), validated by core. */
  | { kind: "output"; value: unknown }
  /**
   * The run's trace (`GET /api/traces/:id`), kept with the turn so "Trace of this run" is there
   * again after a reload or a restart. A run that continues after an approval has one of its own.
   */
  | { kind: "trace"; traceId: string }
  /** How full the model's window was on the turn's last request, by core's token estimator. */
  | { kind: "context"; size: ContextSize }
  | {
      kind: "notice";
      level: "info" | "warning" | "error";
      text: string;
      /** A warning's code: the same code is shown once per turn. */
      code?: string;
    };

/** A model provider the playground can use, as the UI lists it. Never carries the key itself. */
export interface ProviderInfo {
  id: "anthropic" | "openai" | "gemini" | "bedrock" | "openai-compatible" | "offline";
  label: string;
  /** Where it was found: the environment variable or setting, for the UI to say. */
  source: string;
  defaultModel: string;
  models: string[];
}

/** A conversation in the list. */
export interface ConversationSummary {
  id: string;
  title: string;
  provider: string;
  model: string;
}

/** A whole conversation, as `GET /api/conversations/:id` answers. */
export interface ConversationDetail extends ConversationSummary {
  createdAt: string;
  updatedAt: string;
  transcript: TranscriptItem[];
  /** The JSON Schema every answer of this conversation must match, if one is set. */
  outputSchema: Record<string, unknown> | null;
  /** Where the model's programs run, if it may write them (core's code mode). */
  codeMode: CodeModeSetting;
}

/**
 * A conversation's code mode: `off` (the model calls tools one step at a time), `sandbox` (it may
 * write a program, core's `run_program`, run in the playground's QuickJS sandbox), or `provider`
 * (the vendor runs the program in its own runtime: only on a model that runs programs itself).
 */
export type CodeModeSetting = "off" | "sandbox" | "provider";

/** `GET /api/code-mode?provider=…&model=…`: the code modes a provider's model can have. */
export interface CodeModeChoices {
  /** Always `off` and `sandbox`; `provider` too when the model runs programs itself. */
  modes: CodeModeSetting[];
  /** Why `provider` is not among `modes`, and what to choose instead. */
  providerUnavailable?: string;
}

/** The last health check of a server (`ping`). */
export interface ServerHealth {
  /**
   * `ok`: it answered; `unsupported`: it answered that it has no `ping`; `reconnecting`: it
   * stopped and the client is restarting it; `failed`: no answer in time, or an error.
   */
  state: "ok" | "unsupported" | "reconnecting" | "failed";
  /** When the check ended (ISO time). */
  at: string;
  /** The round trip, when it answered. */
  latencyMs?: number;
  /** Why it failed or is not available. */
  error?: string;
}

/** What the UI shows about a server. */
export interface ServerStatus {
  id: string;
  name: string;
  /** The `mcpServers` entry, as stored (default servers: as resolved on this machine). */
  config: Record<string, unknown>;
  builtin: string | null;
  enabled: boolean;
  /**
   * The model gets this server's tools only once it finds them with the tool search (core's
   * `defer`): each request is smaller, and a search costs one round trip before a tool's first use.
   */
  deferTools: boolean;
  /** `reconnecting`: the server died and the client is restarting it (calls wait for it). */
  status: "connecting" | "connected" | "reconnecting" | "error" | "disabled";
  /** The connection error, with the server's stderr tail where the client gave it. */
  error?: string;
  serverInfo?: { name?: string; version?: string; [key: string]: unknown };
  instructions?: string;
  capabilities?: Record<string, unknown>;
  /** The last ping, if one was made. */
  health?: ServerHealth;
  /**
   * What the config loader said about the entry when it was last connected, such as a key it
   * does not read with a "did you mean" suggestion. Absent when it said nothing.
   */
  warnings?: string[];
}

/** What importing an `mcpServers` file did (`POST /api/servers/import`). */
export interface ServerImport {
  added: string[];
  /** Entries not added, with why (a server of that name exists). */
  skipped: { name: string; reason: string }[];
  /** What the config loader said about the entries (unknown keys, with "did you mean"). */
  warnings: string[];
}

/** One JSON-RPC message between the playground and a server, as the traffic view shows it. */
export interface TrafficEntry {
  /** Increases by one per message of this server, so a reader can ask for what is new. */
  seq: number;
  /** `out`: the playground sent it; `in`: the server sent it. */
  direction: "in" | "out";
  /** When it crossed, in epoch milliseconds. */
  at: number;
  kind: "request" | "notification" | "response" | "error";
  /** The method (of the request a response answers, for responses). */
  method?: string;
  /** The JSON-RPC id, for requests and responses. */
  id?: string | number;
  /** For a response: milliseconds since its request crossed. */
  durationMs?: number;
  /** The message as JSON, secrets masked, cut to a bounded length. */
  text: string;
  /** The size of the whole message as JSON, in characters. */
  size: number;
  /** Whether `text` was cut. */
  truncated: boolean;
}

/** `GET /api/servers/:id/traffic`. */
export interface TrafficLog {
  entries: TrafficEntry[];
  /** Older messages dropped to keep the log bounded. */
  dropped: number;
}

/** `GET /api/servers/:id/stderr`. */
export interface StderrLog {
  /** The newest part of what the server wrote to stderr (secrets masked). */
  text: string;
  /** Characters dropped from the front to keep it bounded. */
  dropped: number;
}

/** An elicitation request waiting for the person's answer. */
export interface ElicitationRequest {
  id: string;
  server: string;
  /** The question; for a sampling approval, everything the model would receive, uncut. */
  message: string;
  requestedSchema: unknown;
  /** `"sampling"`: the server asks the model, and the person accepts or declines. */
  kind?: "sampling";
}

/** An event for every open page (`GET /api/events`): server status, elicitation requests, logs. */
export type HubEvent =
  | { type: "servers-changed" }
  | ({ type: "elicitation-request" } & ElicitationRequest)
  | { type: "elicitation-closed"; id: string }
  /** An open MCP App was closed by the host (its server was edited, restarted or removed). */
  | { type: "app-closed"; appId: string; reason: string }
  /** The server's `notifications/progress` for an app's tools/call made with a `progressId`. */
  | {
      type: "app-progress";
      appId: string;
      progressId: string;
      progress: number;
      total?: number;
      message?: string;
    }
  | {
      type: "server-log";
      server: string;
      /** The newest messages since the last push, oldest first. */
      entries: { at: string; level: string; logger?: string; data: unknown }[];
      /** Messages received since the last push but not in `entries` (a flooding server). */
      skipped: number;
    };

/** Settings the UI can change; kept in the database. */
export interface PlaygroundSettings {
  /** An OpenAI-compatible endpoint, OpenAI-style with /v1, for example http://127.0.0.1:11434/v1 (Ollama). */
  openaiCompatibleBaseURL?: string;
  openaiCompatibleModel?: string;
}

/** `GET /api/state`. */
export interface PlaygroundState {
  providers: ProviderInfo[];
  settings: PlaygroundSettings;
  elicitations: ElicitationRequest[];
}

/** A client of the playground's MCP endpoint, as it named itself (untrusted text, shown as text). */
export interface ServedClient {
  /** `clientInfo.name` from `initialize`, or from a 2026-07-28 request's `_meta`; "unknown" when it sent none. */
  name: string;
  version: string;
  /** The 2025-11-25 session id, or "stateless" for 2026-07-28 requests (and stdio). */
  session: string;
  protocolVersion: string | null;
  firstSeen: number;
  lastSeen: number;
  /** Requests it sent, every method. */
  requests: number;
  /** Set once the client ended its session (HTTP `DELETE`). */
  closed?: boolean;
}

/** One `tools/call` a client made to the endpoint, newest first in the listing. */
export interface ServedCall {
  id: number;
  /** The client's `session` (see {@link ServedClient}). */
  session: string;
  clientName: string;
  tool: string;
  startedAt: number;
  /** Set once it finished. */
  durationMs?: number;
  outcome: "running" | "ok" | "error" | "cancelled";
  /** The first line of an error result or the error, cut to 300 characters. */
  detail?: string;
}

/** The playground's own MCP endpoint: its switch, where it is, and who used it. */
export interface ServeStatus {
  enabled: boolean;
  /** `http://127.0.0.1:<port>/mcp` while serving. */
  url: string | null;
  /** The bearer token every request needs (kept in the playground's database, 0600). */
  token: string | null;
  /** Why serving could not start (the switch stays on; fix it and switch again). */
  error: string | null;
  /** The tools a client sees: `ask_playground` and the connected servers' tools, prefixed. */
  tools: string[];
  /** What happens when the served agent wants a tool that needs approval. */
  approvals: string;
  clients: ServedClient[];
  calls: ServedCall[];
}
