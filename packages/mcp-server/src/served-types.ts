import type { MCPTool, Tool, ToolResult } from "@junction/types";
import type {
  AuthInfo,
  GetPromptResult,
  ListResourcesResult,
  McpServer,
  ReadResourceResult,
  ServerContext,
  ServerOptions,
} from "@modelcontextprotocol/server";
import type { ZodObject, z } from "zod";
import type { MCPPassThrough } from "./pass-through.js";
import type { MCPServerSkills } from "./serve-skills.js";
import type { MCPTaskOptions } from "./task-options.js";

/**
 * What a resource or prompt handler gets besides its input. A prompt's also reaches the request
 * context through `servedContext(context)` (logging, sampling, elicitation, roots, its own state):
 * on 2026-07-28 a prompt asks the client with `input_required`, as a served tool does.
 */
export interface MCPRequestContext {
  /** Aborted when the client cancels the request or goes away. */
  signal: AbortSignal;
  /** The verified token of an HTTP request, when the endpoint has `auth` (see `createMCPHTTPHandler`). */
  authInfo?: AuthInfo;
  /** The SDK's own handler context, for what Junction does not wrap. */
  raw: ServerContext;
}

/** A resource at a fixed URI. */
export interface MCPServerResource {
  uri: string;
  /** A short name, unique among the server's resources. */
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /**
   * Lets clients subscribe to it (`resources/subscribe`, 2025 sessions and stdio connections):
   * the server declares `resources.subscribe`, and `server.resourceUpdated(uri)` tells the
   * subscribers it changed.
   * @default false
   */
  subscribe?: boolean;
  /** Reads it: the contents (`text` or base64 `blob`), each with its `uri`. */
  read(uri: URL, context: MCPRequestContext): ReadResourceResult | Promise<ReadResourceResult>;
}

/** Resources whose URIs follow an RFC 6570 template, such as `notes://{id}`. */
export interface MCPServerResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** Lets clients subscribe to the resources it matches (see `MCPServerResource.subscribe`). @default false */
  subscribe?: boolean;
  /** Lists the resources the template currently matches (shown in `resources/list`). */
  list?(context: MCPRequestContext): ListResourcesResult | Promise<ListResourcesResult>;
  /** Completes a template variable for `completion/complete`, by variable name. */
  complete?: Record<string, (value: string) => string[] | Promise<string[]>>;
  /** Reads one resource; `variables` are the template's values taken from the URI. */
  read(
    uri: URL,
    variables: Record<string, string | string[]>,
    context: MCPRequestContext,
  ): ReadResourceResult | Promise<ReadResourceResult>;
}

/** A prompt template; its arguments are a zod object of string fields. */
export interface MCPServerPrompt<S extends ZodObject = ZodObject> {
  name: string;
  title?: string;
  description?: string;
  /** The arguments, validated before `get` runs; their descriptions are what clients show. */
  arguments?: S;
  /** Completes an argument for `completion/complete`, by argument name. */
  complete?: Record<string, (value: string) => string[] | Promise<string[]>>;
  get(args: z.output<S>, context: MCPRequestContext): GetPromptResult | Promise<GetPromptResult>;
}

/** One MCP connection re-served through a gateway: `{ mcp, prefix }` makes names `${prefix}_${name}`. */
export interface MCPGatewayEntry {
  mcp: GatewaySource;
  prefix?: string;
}

/**
 * What a gateway needs of a connection: `MCP` from `@junction/mcp-client` fits. The tools are
 * listed as the server sent them (annotations, output schemas and titles kept).
 */
export interface GatewaySource {
  listServerTools(): Promise<MCPTool[]>;
  callTool(
    name: string,
    args: Record<string, unknown>,
    options: {
      signal?: AbortSignal;
      onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
    },
  ): Promise<ToolResult>;
}

/** When and how a gateway offers tool search (`MCPServerOptions.toolSearch`). */
export interface GatewayToolSearchOptions {
  /**
   * Past this many re-served tools, the gateway lists `search_tools` and `call_tool` instead.
   * @default 50
   */
  threshold?: number;
  /**
   * How many tools a search returns when the caller does not say (`limit`, 1 to 10).
   * @default 5
   */
  maxResults?: number;
}

/** A request the server is about to handle, as `aroundRequest` sees it. */
export interface MCPServedRequest {
  /** The JSON-RPC method, such as `tools/call`. */
  method: string;
  /** The JSON-RPC request id. */
  id: string | number;
  /** The request's params as sent (untrusted). */
  params: Record<string, unknown>;
  /** The request's `_meta` less the 2026-07-28 envelope keys: where a caller's `traceparent` is. */
  meta: Record<string, unknown>;
  /** How it came: over stdio, or over Streamable HTTP. */
  transport: "stdio" | "http";
  /** The 2025-11-25 session (`Mcp-Session-Id`), when there is one. */
  sessionId?: string;
  /** The protocol revision of the request (2026-07-28) or the session's (2025). */
  protocolVersion?: string;
}

/**
 * A protocol era: `legacy` is 2025-11-25 and earlier (sessions, server-to-client requests),
 * `modern` is 2026-07-28 (stateless requests, `input_required`).
 */
export type Era = "legacy" | "modern";

/** Which era and request an SDK server instance is built for (the SDK's `McpRequestContext`). */
export interface MCPServeContext {
  era: Era;
  authInfo?: AuthInfo;
  request?: Request;
}

/** What `createMCPServer()` takes. */
export interface MCPServerOptions {
  /** The server's name in `serverInfo`. */
  name: string;
  /** The server's version in `serverInfo`. */
  version: string;
  title?: string;
  /** Told to clients at `initialize` / `server/discover`: how to use the server. */
  instructions?: string;
  /**
   * Declare the `logging` capability, so that served tools may log to the client
   * (`servedContext(context).log(...)`, honouring the level the client set).
   * @default false
   */
  logging?: boolean;
  /** Local tools, for example made with core's `tool()` or `agentTool()`. */
  tools?: Tool[];
  /** Resources at fixed URIs. */
  resources?: MCPServerResource[];
  /** Resources whose URIs follow a template. */
  resourceTemplates?: MCPServerResourceTemplate[];
  prompts?: MCPServerPrompt[];
  /**
   * Skills served with the Skills extension (`io.modelcontextprotocol/skills`, SEP-2640), to
   * clients of both eras and over every transport: each skill's files are resources under
   * `skill://<name>/`, its entry (frontmatter, every file with its size and SHA-256 digest) is
   * in `skills/list` and `skills/get`, its folders are read with `resources/directory/read`, and
   * each `SKILL.md` is listed in `resources/list`. Inline skills (`{ name, description,
   * instructions, files? }`) are checked at `createMCPServer()`; skills in storage
   * (`skillsDirectory(path)` from `@junction/mcp-server/node`) are loaded at once, and a
   * problem found there fails the first connection with what to fix.
   */
  skills?: MCPServerSkills;
  /** MCP connections whose tools are re-served (a gateway), listed on every `tools/list`. */
  mcps?: MCPGatewayEntry[];
  /**
   * Tool search for a large gateway: when the connections (`mcps`) re-serve more tools than
   * `threshold`, `tools/list` shows `search_tools` and `call_tool` in their place (local tools
   * stay listed). `search_tools` ranks them with core's index (each match with its name,
   * description, input schema and confidence); `call_tool` `{ name, arguments }` calls one as a
   * direct call would. `false`: every tool is listed, however many.
   * @default `{ threshold: 50, maxResults: 5 }` (`DEFAULT_GATEWAY_SEARCH_THRESHOLD`)
   */
  toolSearch?: false | GatewayToolSearchOptions;
  /**
   * Cache hints for the 2026-07-28 revision's cacheable results (`tools/list`, `resources/list`,
   * `server/discover`, ...), by method. Omitted: results say `ttlMs: 0`, `cacheScope: "private"`.
   */
  cacheHints?: ServerOptions["cacheHints"];
  /**
   * The secret (32 bytes or more) that signs what the server hands a client to keep: the
   * `requestState` of `input_required` results (2026-07-28), such as a served agent's stopped run
   * while it waits for an approval. Set it when more than one process serves the endpoint, or
   * when an answer may come after a restart. Required with a `tasks.store` other than the
   * in-memory one (`createMCPServer()` refuses to start without it).
   * @default 32 random bytes per process
   */
  stateKey?: string | Uint8Array;
  /**
   * How long a minted `requestState` stays valid, in seconds.
   * @default 3600
   */
  stateTtlSeconds?: number;
  /**
   * Serve agent tools (`agentTool()`) as tasks to 2026-07-28 clients that declare the tasks
   * extension: the call returns a task at once, the run goes on in the background, and an
   * approval becomes the task's input request. Omitted: every call runs within the request.
   */
  tasks?: MCPTaskOptions;
  /**
   * Forwards what upstream MCP servers ask during a served call (elicitation, sampling) to the
   * client that made the call: the gateway's connections (`mcps`) and the MCP connections of
   * served agents, each made with `passThrough.handlers`.
   */
  passThrough?: MCPPassThrough;
  /**
   * Called on every SDK server instance after Junction registered its tools, resources and prompts:
   * register what Junction does not wrap with the SDK's own API. A served `tool()` or prompt logs,
   * samples, elicits, lists roots and keeps state across `input_required` rounds through
   * `servedContext()`; resources take `subscribe: true`. The SDK builds one instance per HTTP request (2026-07-28), per
   * 2025-11-25 session, and per stdio connection.
   */
  configure?: (server: McpServer, context: MCPServeContext) => void | Promise<void>;
  /**
   * Runs around the handling of every request (`handle()` runs the server's own handler and
   * resolves with its result): for instrumentation. `@junction/otel`'s `instrumentMCPServer`
   * sets it to open an `mcp.server` span per request that continues the caller's trace
   * (`_meta.traceparent`) and is the current context of the handler, so a served agent's spans
   * are its children.
   */
  aroundRequest?: (request: MCPServedRequest, handle: () => Promise<unknown>) => Promise<unknown>;
}
