import type { JSONSchema, Tool, ToolContext } from "@junction/types";
import {
  type CallToolResult,
  fromJsonSchema,
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type RegisteredTool,
  type RequestStateCodec,
  type ServerContext,
  type StandardSchemaWithJSON,
  type ToolAnnotations,
} from "@modelcontextprotocol/server";
import { toCallToolResult, toolErrorResult } from "./call-tool-result.js";
import {
  inputRequiredOf,
  progressReporter,
  SERVED_REQUEST,
  SERVED_SCOPE,
  type ServedToolContextCarrier,
  type ServedToolScope,
  taskStartOf,
} from "./served-context.js";

/** What a served tool is registered with: its wire name, and what `tools/list` shows of it. */
export interface ServedToolDefinition {
  name: string;
  title?: string;
  description: string;
  inputSchema: JSONSchema;
  outputSchema?: JSONSchema;
  annotations?: ToolAnnotations;
  icons?: Parameters<McpServer["registerTool"]>[1]["icons"];
  _meta?: Record<string, unknown>;
}

/**
 * Registers a Junction `Tool` on an SDK server. The input schema goes to `tools/list` as the
 * tool's own JSON Schema; arguments are checked by the tool itself (a `tool()` validates with
 * its zod schema, and its error names the field), so the SDK passes them through unchanged.
 * `structuredContent` is checked by the SDK against the `outputSchema`. The tool's context
 * carries the request (`servedContext()` reads it); a 2026-07-28 call whose tool asked the client
 * something it has no answer for yet ends with `input_required`, and one that asked for what the
 * client did not declare (and did not catch it) with the `-32021` error.
 */
export function registerServedTool(
  server: McpServer,
  tool: Tool,
  served: { definition: ServedToolDefinition; scope: Omit<ServedToolScope, "server" | "tool"> },
): RegisteredTool {
  return server.registerTool(
    served.definition.name,
    servedToolConfig(served.definition),
    servedToolHandler(server, tool, served),
  );
}

/**
 * What answers a `tools/call` of a served tool (see {@link registerServedTool}). With
 * `scope.startTask` (a 2026-07-28 call from a client with the tasks extension, of a tool that
 * asks before its task), a call whose tool reached `servedContext().startTask()` answers with the
 * task `startTask` makes, given the answers gathered so far.
 */
export function servedToolHandler(
  server: McpServer,
  tool: Tool,
  served: { definition: ServedToolDefinition; scope: Omit<ServedToolScope, "server" | "tool"> },
): (args: unknown, context: ServerContext) => Promise<CallToolResult> {
  const { definition } = served;
  const scope: ServedToolScope = { ...served.scope, server, tool: definition.name };
  return async (args: unknown, context: ServerContext) => {
    const work: ServedToolContextCarrier & ToolContext = {
      signal: context.mcpReq.signal,
      [SERVED_REQUEST]: context,
      [SERVED_SCOPE]: scope,
    };
    const onProgress = progressReporter(context);
    if (onProgress) work.onProgress = onProgress;
    let result: CallToolResult;
    let error: unknown;
    try {
      result = toCallToolResult(await tool.execute(args ?? {}, work));
    } catch (caught) {
      error = caught;
      result = toolErrorResult(definition.name, caught);
    }
    const start = taskStartOf(work);
    if (start && scope.startTask) {
      return (await scope.startTask({ args: args ?? {}, ...start, context })) as never;
    }
    // Only a call that used `servedContext()` on 2026-07-28 can have a question pending.
    if (scope.era === "legacy") return result;
    return ((await inputRequiredOf(work, { request: context, error })) ?? result) as never;
  };
}

/**
 * The request's context with its echoed `requestState` checked by `codec` and decoded, as the
 * SDK's `tools/call` seam hands it to a tool's handler (a changed or expired state is refused
 * with -32602, as there); for a call answered before that seam.
 */
export async function withVerifiedRequestState(
  codec: RequestStateCodec,
  context: ServerContext,
): Promise<ServerContext> {
  const raw: unknown = context.mcpReq.requestState();
  if (raw === undefined) return context;
  let decoded: unknown;
  try {
    if (typeof raw !== "string") throw new TypeError("not a string");
    decoded = await codec.verify(raw, context);
  } catch {
    // The SDK's own answer to a state it cannot verify (its reason is not the client's to know).
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, "Invalid or expired requestState", {
      reason: "invalid_request_state",
    });
  }
  return { ...context, mcpReq: { ...context.mcpReq, requestState: (() => decoded) as never } };
}

/** A Junction tool's `definition` as it is served under `name`. */
export function definitionOf(tool: Tool, name = tool.name): ServedToolDefinition {
  return {
    name,
    ...(tool.annotations?.title === undefined ? {} : { title: tool.annotations.title }),
    description: tool.description,
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
  };
}

/**
 * The tool's context for one `tools/call`: the request's abort signal (the client's
 * `notifications/cancelled` aborts it), and `onProgress` when the client sent a progress token.
 */
export function toolContext(context: ServerContext): ToolContext {
  const result: ToolContext = { signal: context.mcpReq.signal };
  const onProgress = progressReporter(context);
  if (onProgress) result.onProgress = onProgress;
  return result;
}

/**
 * A schema the SDK can list and "validate" with: its JSON Schema is the tool's own (shown
 * unchanged, `$schema` and `$defs` included), and it accepts any value, because the tool
 * validates its own input (or the gateway's upstream server does).
 */
export function passthroughSchema(schema: JSONSchema): StandardSchemaWithJSON {
  return {
    "~standard": {
      version: 1,
      vendor: "junction",
      validate: (value: unknown) => ({ value }),
      jsonSchema: {
        input: () => schema,
        output: () => schema,
      },
    },
  };
}

/**
 * What `registerTool` is told of a served tool: its definition as `tools/list` shows it, the input
 * schema passed through as written (the tool, or the upstream server, checks the arguments).
 */
export function servedToolConfig(definition: ServedToolDefinition) {
  return {
    ...(definition.title === undefined ? {} : { title: definition.title }),
    description: definition.description,
    inputSchema: passthroughSchema(definition.inputSchema),
    ...(definition.outputSchema ? { outputSchema: fromJsonSchema(definition.outputSchema) } : {}),
    ...(definition.annotations ? { annotations: definition.annotations } : {}),
    ...(definition.icons ? { icons: definition.icons } : {}),
    ...(definition._meta ? { _meta: definition._meta } : {}),
  };
}
