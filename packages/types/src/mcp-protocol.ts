/**
 * The Model Context Protocol's shapes that users of a client meet: what servers describe
 * and return, and what they ask of a client. They follow the 2026-07-28 and 2025-11-25
 * revisions of the specification and stay assignable both ways with the v2 MCP SDK's types
 * (`@modelcontextprotocol/client`; a compile-time test checks that, and against the v1 SDK
 * where the two SDK lines agree). Free-form fields are JSON (`JSONObject`, `JSONValue`) as in
 * v2. Type aliases rather than interfaces, so extra fields a newer server sends are allowed
 * where the SDK allows them.
 */

/** The protocol revisions these types follow. */
export type MCPProtocolVersion = "2026-07-28" | "2025-11-25" | "2025-06-18" | "2025-03-26" | "2024-11-05";

type Meta = { [key: string]: unknown };

/** Any JSON value (the 2026-07-28 revision types free-form fields as JSON rather than `object`). */
export type JSONValue = string | number | boolean | null | JSONValue[] | JSONObject;
/** A JSON object. */
export type JSONObject = { [key: string]: JSONValue };

/** A result object: may carry `_meta` and, by the specification, further fields. */
export type MCPResult = { _meta?: Meta; [key: string]: unknown };

export type Icon = { src: string; mimeType?: string; sizes?: string[]; theme?: "light" | "dark" };

/** A client's or server's name and version, as exchanged in `initialize`. */
export type Implementation = {
  name: string;
  title?: string;
  version: string;
  description?: string;
  websiteUrl?: string;
  icons?: Icon[];
};

export type ServerCapabilities = {
  experimental?: { [key: string]: JSONObject };
  logging?: JSONObject;
  completions?: JSONObject;
  prompts?: { listChanged?: boolean };
  resources?: { subscribe?: boolean; listChanged?: boolean };
  tools?: { listChanged?: boolean };
  tasks?: { list?: JSONObject; cancel?: JSONObject; requests?: { tools?: { call?: JSONObject } } };
  extensions?: { [key: string]: JSONObject };
};

export type ClientCapabilities = {
  experimental?: { [key: string]: JSONObject };
  roots?: { listChanged?: boolean };
  sampling?: { context?: JSONObject; tools?: JSONObject };
  elicitation?: { form?: { applyDefaults?: boolean } & JSONObject; url?: JSONObject } & JSONObject;
  tasks?: {
    list?: JSONObject;
    cancel?: JSONObject;
    requests?: { sampling?: { createMessage?: JSONObject }; elicitation?: { create?: JSONObject } };
  };
  /** Protocol extensions the client supports, keyed by identifier (MCP 2025-11-25). */
  extensions?: { [key: string]: JSONObject };
};

export type InitializeResult = MCPResult & {
  protocolVersion: string;
  capabilities: ServerCapabilities;
  serverInfo: Implementation;
  instructions?: string;
};

export type Role = "user" | "assistant";
export type ContentAnnotations = { audience?: Role[]; priority?: number; lastModified?: string };

export type TextContent = { type: "text"; text: string; annotations?: ContentAnnotations; _meta?: Meta };
export type ImageContent = {
  type: "image";
  data: string;
  mimeType: string;
  annotations?: ContentAnnotations;
  _meta?: Meta;
};
export type AudioContent = {
  type: "audio";
  data: string;
  mimeType: string;
  annotations?: ContentAnnotations;
  _meta?: Meta;
};

export type TextResourceContents = { uri: string; mimeType?: string; _meta?: Meta; text: string };
export type BlobResourceContents = { uri: string; mimeType?: string; _meta?: Meta; blob: string };
export type ResourceContents = TextResourceContents | BlobResourceContents;

export type Resource = {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: ContentAnnotations;
  size?: number;
  icons?: Icon[];
  _meta?: Meta;
};
export type ResourceTemplate = {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: ContentAnnotations;
  icons?: Icon[];
  _meta?: Meta;
};
export type ResourceLink = Resource & { type: "resource_link" };
export type EmbeddedResource = {
  type: "resource";
  resource: ResourceContents;
  annotations?: ContentAnnotations;
  _meta?: Meta;
};

/** Any content block a server may put in a tool result or prompt message. */
export type MCPContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

export type ReadResourceResult = MCPResult & { contents: ResourceContents[] };

export type MCPToolAnnotations = {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
};

type ObjectSchema = {
  $schema?: string;
  type: "object";
  properties?: { [key: string]: JSONValue };
  required?: string[];
  [key: string]: unknown;
};

/** A tool as an MCP server describes it in `tools/list`. */
export type MCPTool = {
  name: string;
  title?: string;
  description?: string;
  inputSchema: ObjectSchema;
  outputSchema?: { $schema?: string; [key: string]: unknown };
  annotations?: MCPToolAnnotations;
  execution?: { taskSupport?: "forbidden" | "optional" | "required" };
  icons?: Icon[];
  _meta?: Meta;
};

/** A `tools/call` result as the server sent it. */
export type CallToolResult = MCPResult & {
  content: MCPContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
};

export type PromptArgument = { name: string; title?: string; description?: string; required?: boolean };
export type Prompt = {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
  _meta?: Meta;
};
export type PromptMessage = { role: Role; content: MCPContentBlock };
export type GetPromptResult = MCPResult & { description?: string; messages: PromptMessage[] };

export type CompleteResult = MCPResult & {
  completion: { values: string[]; total?: number; hasMore?: boolean };
};

/** A folder or file the client lets servers work within. */
export type Root = { uri: string; name?: string; _meta?: Meta };

export type LoggingLevel =
  | "debug"
  | "info"
  | "notice"
  | "warning"
  | "error"
  | "critical"
  | "alert"
  | "emergency";

/** A log message a server sent (`notifications/message`). */
export type LoggingMessage = { level: LoggingLevel; logger?: string; data: unknown };

export type ToolUseContent = {
  type: "tool_use";
  id: string;
  name: string;
  input: { [key: string]: unknown };
  _meta?: Meta;
};
export type ToolResultContent = {
  type: "tool_result";
  toolUseId: string;
  content: MCPContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: Meta;
};
export type SamplingMessageContentBlock =
  | TextContent
  | ImageContent
  | AudioContent
  | ToolUseContent
  | ToolResultContent;
export type SamplingMessage = {
  role: Role;
  content: SamplingMessageContentBlock | SamplingMessageContentBlock[];
  _meta?: Meta;
};
export type ModelPreferences = {
  hints?: { name?: string }[];
  costPriority?: number;
  speedPriority?: number;
  intelligencePriority?: number;
};

/** A server's `sampling/createMessage` request: it asks the client's model for a completion. */
export type CreateMessageRequestParams = {
  messages: SamplingMessage[];
  modelPreferences?: ModelPreferences;
  systemPrompt?: string;
  includeContext?: "none" | "thisServer" | "allServers";
  temperature?: number;
  maxTokens: number;
  stopSequences?: string[];
  metadata?: JSONObject;
  tools?: MCPTool[];
  toolChoice?: { mode?: "auto" | "required" | "none" };
  _meta?: Meta;
  [key: string]: unknown;
};
/** The client's answer to `sampling/createMessage` (a request without tools gets one content block). */
export type CreateMessageResult = MCPResult & {
  model: string;
  stopReason?: "endTurn" | "stopSequence" | "maxTokens" | "toolUse" | (string & {});
  role: Role;
  content: TextContent | ImageContent | AudioContent;
};
/** The answer to a `sampling/createMessage` request that offered tools: it may call them. */
export type CreateMessageResultWithTools = MCPResult & {
  model: string;
  stopReason?: "endTurn" | "stopSequence" | "maxTokens" | "toolUse" | (string & {});
  role: Role;
  content: SamplingMessageContentBlock | SamplingMessageContentBlock[];
};
/** The contract's name for the sampling request, as `CreateMessageRequest["params"]`. */
export type CreateMessageRequest = { method: "sampling/createMessage"; params: CreateMessageRequestParams };

type Described = { title?: string; description?: string };
type EnumOption = { const: string; title: string };
/** A field of an elicitation form: strings, numbers, booleans, and single or multiple choice. */
export type PrimitiveSchemaDefinition =
  | (Described & {
      type: "string";
      minLength?: number;
      maxLength?: number;
      format?: "email" | "uri" | "date" | "date-time";
      default?: string;
    })
  | (Described & { type: "number" | "integer"; minimum?: number; maximum?: number; default?: number })
  | (Described & { type: "boolean"; default?: boolean })
  | (Described & { type: "string"; enum: string[]; enumNames?: string[]; default?: string })
  | (Described & { type: "string"; oneOf: EnumOption[]; default?: string })
  | (Described & MultiSelect & { items: { type: "string"; enum: string[] } })
  | (Described & MultiSelect & { items: { anyOf: EnumOption[] } });
type MultiSelect = { type: "array"; minItems?: number; maxItems?: number; default?: string[] };
/** A server's `elicitation/create` request: it asks the user for input, by a form or a URL. */
export type ElicitRequestParams =
  | {
      mode?: "form";
      message: string;
      requestedSchema: {
        $schema?: string;
        type: "object";
        properties: { [key: string]: PrimitiveSchemaDefinition };
        required?: string[];
      };
      _meta?: Meta;
      [key: string]: unknown;
    }
  | {
      mode: "url";
      message: string;
      elicitationId: string;
      url: string;
      _meta?: Meta;
      [key: string]: unknown;
    };
export type ElicitRequest = { method: "elicitation/create"; params: ElicitRequestParams };
/** The client's answer to `elicitation/create`. */
export type ElicitResult = MCPResult & {
  action: "accept" | "decline" | "cancel";
  content?: { [key: string]: string | number | boolean | string[] };
};

export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";
/** A long-running request a server runs as a task (protocol revision 2025-11-25). */
export type Task = {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttl: number | null;
  pollInterval?: number;
};

/** One file of a skill (Skills extension, SEP-2640), with what a host needs to verify it. */
export type MCPSkillResourceEntry = {
  /** The file's resource URI. */
  uri: string;
  /** `sha256:` and the lowercase hex SHA-256 of the file's raw bytes. */
  digest: string;
  /** The length of the file's raw bytes. */
  size: number;
  [key: string]: unknown;
};

/** A skill's `SKILL.md` frontmatter as JSON, verbatim: at least `name` and `description`. */
export type MCPSkillFrontmatter = { name: string; description: string; [key: string]: unknown };

/**
 * A skill entry as the Skills extension (`io.modelcontextprotocol/skills`, SEP-2640) carries
 * it in `skills/list` and `skills/get`: the URI of its `SKILL.md`, its frontmatter, and every
 * file with size and digest (or `"dynamic"`: files are not enumerated, reads go unverified).
 */
export type MCPSkill = {
  /** The resource URI of the skill's `SKILL.md`, such as `skill://pdf-processing/SKILL.md`. */
  uri: string;
  frontmatter: MCPSkillFrontmatter;
  resources: MCPSkillResourceEntry[] | "dynamic";
  _meta?: Meta;
  [key: string]: unknown;
};
