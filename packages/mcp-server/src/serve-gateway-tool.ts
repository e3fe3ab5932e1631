import type { ToolResult } from "@junction/types";
import {
  type CallToolResult,
  fromJsonSchema,
  type InputRequiredResult,
  type McpServer,
  type RequestStateCodec,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { toCallToolResult, toolErrorResult } from "./call-tool-result.js";
import type { PassThroughRelay } from "./pass-through.js";
import { type PassThroughWork, runWithPassThrough } from "./pass-through-call.js";
import { passthroughSchema, type ServedToolDefinition } from "./serve-tool.js";

/**
 * Registers one upstream tool of a gateway: `call` makes the upstream call with the caller's
 * signal and progress. With a pass-through, what the upstream server asks during the call
 * (elicitation, sampling) reaches the caller: within the call on 2025-11-25 sessions, as an
 * `input_required` result on 2026-07-28.
 */
export function registerGatewayTool(
  server: McpServer,
  definition: ServedToolDefinition,
  parts: {
    call: (args: Record<string, unknown>, work: PassThroughWork) => Promise<ToolResult>;
    relay: PassThroughRelay | undefined;
    era: "legacy" | "modern";
    codec: RequestStateCodec;
  },
): void {
  server.registerTool(
    definition.name,
    {
      ...(definition.title === undefined ? {} : { title: definition.title }),
      description: definition.description,
      inputSchema: passthroughSchema(definition.inputSchema),
      ...(definition.outputSchema ? { outputSchema: fromJsonSchema(definition.outputSchema) } : {}),
      ...(definition.annotations ? { annotations: definition.annotations } : {}),
      ...(definition.icons ? { icons: definition.icons } : {}),
      ...(definition._meta ? { _meta: definition._meta } : {}),
    },
    async (args: unknown, context: ServerContext): Promise<CallToolResult | InputRequiredResult> => {
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
    },
  );
}
