import type { MCPTool, Tool, ToolContext, ToolResult } from "@junction/types";
import { errorMessage } from "@junction/types";
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/client";

/** A compiled `outputSchema` check, as the SDK's JSON Schema validator returns it. */
export type OutputValidator = (value: unknown) => { valid: boolean; errorMessage?: string };

/**
 * An MCP tool as a Junction `Tool` whose `execute` runs `call` with the server-side name's
 * arguments. Description, schemas and the boolean hints of `annotations` are carried over.
 *
 * @param prefix - the name becomes `${prefix}_${name}`; `call` still gets the original tool
 */
export function proxyTool(
  tool: MCPTool,
  prefix: string | undefined,
  call: (input: Record<string, unknown>, context?: ToolContext) => Promise<ToolResult>,
): Tool {
  const proxy: Tool = {
    name: prefix ? `${prefix}_${tool.name}` : tool.name,
    description: tool.description ?? tool.title ?? "",
    inputSchema: tool.inputSchema,
    execute: (input: unknown, context?: ToolContext) =>
      call((input ?? {}) as Record<string, unknown>, context),
  };
  if (tool.outputSchema) proxy.outputSchema = tool.outputSchema;
  const annotations = {
    ...(tool.title ? { title: tool.title } : {}),
    ...pickAnnotations(tool.annotations),
  };
  if (Object.keys(annotations).length > 0) proxy.annotations = annotations;
  return proxy;
}

function pickAnnotations(annotations: MCPTool["annotations"]): Tool["annotations"] {
  const picked: NonNullable<Tool["annotations"]> = {};
  if (!annotations) return picked;
  if (typeof annotations.title === "string") picked.title = annotations.title;
  for (const key of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const) {
    if (typeof annotations[key] === "boolean") picked[key] = annotations[key];
  }
  return picked;
}

/**
 * Checks a successful result's `structuredContent` against the tool's `outputSchema`: a result
 * without it, or one that does not match, becomes an error result with a note saying why.
 */
export function checkStructuredContent(
  result: ToolResult,
  validate: OutputValidator | undefined,
  tool: { server: string; name: string },
): ToolResult {
  const { server, name } = tool;
  if (!validate || result.isError) return result;
  if (result.structuredContent === undefined) {
    result.content.push({
      type: "text",
      text: `[MCP server "${server}": tool "${name}" declares an outputSchema but returned no structuredContent]`,
    });
    result.isError = true;
    return result;
  }
  let outcome: { valid: boolean; errorMessage?: string };
  try {
    outcome = validate(result.structuredContent);
  } catch (error) {
    outcome = { valid: false, errorMessage: errorMessage(error) };
  }
  if (!outcome.valid) {
    result.content.push({
      type: "text",
      text: `[MCP server "${server}": tool "${name}" returned structuredContent that does not match its outputSchema: ${outcome.errorMessage ?? "invalid"}]`,
    });
    result.isError = true;
  }
  return result;
}

/**
 * A JSON-RPC error answer to tools/call is the server's failure to run the tool: a result the
 * model can read. The SDK's own timeout and closed-connection errors are not answers: undefined.
 * Nor is a missing client capability (-32021 `MissingRequiredClientCapability`: the call needs,
 * say, an elicitation handler this connection lacks), which is the setup's fault and rejects as
 * `mcp-capability-missing`.
 */
export function rpcErrorAsResult(error: unknown, name: string): ToolResult | undefined {
  // Only the server's JSON-RPC error answer (`ProtocolError`); the SDK's own timeout and
  // closed-connection errors are `SdkError`s.
  if (!(error instanceof ProtocolError)) return undefined;
  if (error.code === ProtocolErrorCode.MissingRequiredClientCapability) return undefined;
  return {
    content: [{ type: "text", text: `Tool "${name}" failed: ${error.message}` }],
    isError: true,
  };
}
