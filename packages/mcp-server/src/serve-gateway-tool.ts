import type { ToolResult } from "@junction/types";
import type {
  CallToolResult,
  InputRequiredResult,
  McpServer,
  RequestStateCodec,
  ServerContext,
} from "@modelcontextprotocol/server";
import { toCallToolResult, toolErrorResult } from "./call-tool-result.js";
import type { PassThroughRelay } from "./pass-through.js";
import { type PassThroughWork, runWithPassThrough } from "./pass-through-call.js";
import { type ServedToolDefinition, servedToolConfig } from "./serve-tool.js";
import type { Era } from "./served-types.js";

/** What a gateway tool's calls are made with. */
export interface GatewayToolParts {
  call: (args: Record<string, unknown>, work: PassThroughWork) => Promise<ToolResult>;
  relay: PassThroughRelay | undefined;
  era: Era;
  codec: RequestStateCodec;
}

/** The handler of one upstream tool's `tools/call`, shared by its own registration and `call_tool`. */
export type GatewayToolHandler = (
  args: unknown,
  context: ServerContext,
) => Promise<CallToolResult | InputRequiredResult>;

/**
 * Registers one upstream tool of a gateway: `call` makes the upstream call with the caller's
 * signal and progress. With a pass-through, what the upstream server asks during the call
 * (elicitation, sampling) reaches the caller: within the call on 2025-11-25 sessions, as an
 * `input_required` result on 2026-07-28.
 */
export function registerGatewayTool(
  server: McpServer,
  definition: ServedToolDefinition,
  parts: GatewayToolParts,
): void {
  server.registerTool(
    definition.name,
    servedToolConfig(definition),
    gatewayToolHandler(server, definition, parts),
  );
}

/**
 * How one upstream tool is called: arguments go upstream unchanged (the upstream server validates
 * them), the caller's signal and progress token reach the upstream call, and with a pass-through
 * what the upstream server asks reaches the caller. An upstream failure is an `isError` result.
 */
export function gatewayToolHandler(
  server: McpServer,
  definition: ServedToolDefinition,
  parts: GatewayToolParts,
): GatewayToolHandler {
  return async (args, context) => {
    try {
      const outcome = await runWithPassThrough({
        relay: parts.relay,
        server,
        context,
        era: parts.era,
        tool: definition.name,
        codec: parts.codec,
        start: (work) => parts.call((args ?? {}) as Record<string, unknown>, work),
      });
      return outcome.kind === "done" ? toCallToolResult(outcome.value) : outcome.result;
    } catch (error) {
      if (context.mcpReq.signal.aborted) throw error;
      return toolErrorResult(definition.name, error);
    }
  };
}
