/** A JSON Schema object, as MCP servers and model vendors exchange it. */
export type JSONSchema = Record<string, unknown>;

/** Plain text. */
export type TextPart = { type: "text"; text: string };
/** An image, base64-encoded. */
export type ImagePart = { type: "image"; data: string; mimeType: string };
/** Audio, base64-encoded. */
export type AudioPart = { type: "audio"; data: string; mimeType: string };
/** A resource embedded in the result: `text` for textual contents, `blob` (base64) for binary ones. */
export type EmbeddedResourcePart = {
  type: "resource";
  resource: { uri: string; mimeType?: string; text?: string; blob?: string };
};
/** A link to a resource the reader can fetch separately. */
export type ResourceLinkPart = {
  type: "resource_link";
  uri: string;
  name: string;
  mimeType?: string;
  description?: string;
};

/**
 * One piece of a tool result or of user input. The shapes follow MCP content blocks, so
 * what an MCP server sends passes through unchanged.
 */
export type ToolResultPart = TextPart | ImagePart | AudioPart | EmbeddedResourcePart | ResourceLinkPart;

/** A tool's full result: its content, whether it failed, and any structured output. */
export interface ToolResult {
  content: ToolResultPart[];
  isError: boolean;
  /** Structured output, as MCP's `structuredContent` (checked against `outputSchema` where given). */
  structuredContent?: unknown;
}

/** What `Tool.execute()` may return. A plain string stays a plain string all the way to the provider. */
export type ToolOutput = string | ToolResultPart[] | ToolResult;

/** A progress report from a running tool. */
export interface ToolProgress {
  progress: number;
  total?: number;
  message?: string;
}

/** What a running tool is given besides its input. */
export interface ToolContext {
  /** Aborted when the caller gives up: stop work and return or throw promptly. */
  signal?: AbortSignal;
  /** Report progress on long work. */
  onProgress?: (progress: ToolProgress) => void;
  /**
   * The same for every attempt at this call, unique across runs (run id, step and call id): a
   * call retried after a crash carries the same key, so the tool (or the MCP server it is sent
   * to, in `_meta["dev.junction/idempotency-key"]`) can recognise the repeat.
   */
  idempotencyKey?: string;
}

/** Hints about a tool's behaviour, as MCP defines them. Hints, not guarantees. */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** A tool a model can call: a local function or a proxy for an MCP server's tool. */
export interface Tool<Input = any> {
  name: string;
  description: string;
  /** The wire truth: JSON Schema of the input. MCP tools pass theirs through untouched. */
  inputSchema: JSONSchema;
  outputSchema?: JSONSchema;
  annotations?: ToolAnnotations;
  /**
   * Sent to the model only once it finds the tool with the tool search an Agent adds (saves its
   * definition's tokens on every request; costs a search before its first use). Wins over the
   * source's `defer`.
   */
  defer?: boolean;
  /** Always sent, even when the Agent defers tools (automatically or by `defer`). */
  alwaysLoad?: boolean;
  execute(input: Input, context?: ToolContext): Promise<ToolOutput>;
}

/** A tool without its implementation: what a model is told about it. */
export type ToolDefinition = Omit<Tool, "execute"> & {
  /**
   * Set by an Agent on a deferred tool (`defer: true`) from a tool source when the provider
   * searches natively: the group the vendor shows in the tool's place until its search finds it
   * (OpenAI's namespaces). Absent on local tools and on tools sent in full.
   */
  group?: ToolGroup;
  /**
   * Set by an Agent whose code mode runs programs on the provider (`codeMode: { sandbox:
   * "provider" }`), on a model that declares `programmaticToolCalling`: who may call the tool.
   * `code` only the model's programs (in the vendor's runtime), `both` the programs and the model
   * directly. Absent: the model only, as always. A call a program makes comes back as an ordinary
   * tool call and goes through the Agent's gate like a direct one.
   */
  callers?: "code" | "both";
};

/**
 * Tools of one source (an MCP server) as a vendor's own tool search shows them before it finds
 * them: a name and what the tools are for.
 */
export interface ToolGroup {
  /** The source's name (its prefix when it has one). */
  name: string;
  /** What the source's tools are for, with their names. */
  description: string;
}

/** Anything that can list tools, such as an `MCP` connection. */
export interface ToolSource {
  listTools(options?: { prefix?: string }): Promise<Tool[]>;
  /**
   * Optional: subscribe to changes of the tool list (MCP `tools/list_changed`). Returns a
   * function that unsubscribes. An Agent uses it to refresh its tools before the next step.
   */
  onToolsChanged?(listener: () => void): () => void;
  /** Optional: a readable name for errors and traces. */
  readonly name?: string;
  /**
   * Optional: what the source's tools are for, in a sentence (an MCP server's own description or
   * title). A vendor's tool search shows it to the model in place of the source's deferred tools.
   */
  readonly description?: string;
  /**
   * Optional: the source's instructions for the model (an MCP server's `instructions` from its
   * handshake). An Agent's tool search indexes them with the source's name and description.
   */
  readonly instructions?: string;
}
