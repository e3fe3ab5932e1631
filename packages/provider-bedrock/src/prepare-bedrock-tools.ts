import type {
  Tool as BedrockTool,
  ToolChoice as BedrockToolChoice,
  ToolConfiguration,
} from "@aws-sdk/client-bedrock-runtime";
import { objectInputSchema, prepareToolNames, toolChoiceWithoutTools } from "@junction/provider-utils";
import {
  COMMON_TOOL_NAME_RULE,
  type Message,
  type ToolChoice,
  type ToolDefinition,
  type ToolNameMapping,
  type Warning,
} from "@junction/types";

/** The Converse `toolConfig` and the name mapping. */
export interface PreparedBedrockTools {
  /** Absent when the request has no tools. */
  toolConfig?: ToolConfiguration;
  /** Real tool names ↔ the names sent to Bedrock (`[a-zA-Z0-9_-]{1,64}`). */
  toolNames: ToolNameMapping;
  warnings: Warning[];
}

/**
 * Prepares tool definitions for the Converse API. Pure: the caller's objects are never mutated.
 *
 * - Names follow Bedrock's rule `[a-zA-Z0-9_-]{1,64}` (`COMMON_TOOL_NAME_RULE`, through
 *   `prepareToolNames`); the mapping also covers the names used in the history, so earlier turns
 *   map the same way; a second tool with a taken name is left out with a warning.
 * - Schemas go as `inputSchema.json`. Bedrock needs an object schema at the top: a schema
 *   without `type` gets `type: "object"`; any other schema becomes an open object schema with a
 *   warning (the tool still validates its input itself).
 * - Tool choice: `auto` → `{ auto: {} }`, `required` → `{ any: {} }`, a named tool →
 *   `{ tool: { name } }`. Converse has no `none`: the tools are still sent (a conversation with
 *   tool calls needs them) and a warning says the choice was not.
 */
export function prepareBedrockTools(options: {
  tools?: ToolDefinition[];
  toolChoice?: ToolChoice;
  messages: Message[];
}): PreparedBedrockTools {
  const named = prepareToolNames({ ...options, rule: COMMON_TOOL_NAME_RULE, provider: "Bedrock" });
  const { toolNames, warnings } = named;

  const tools: BedrockTool[] = [];
  for (const definition of named.tools) {
    tools.push({
      toolSpec: {
        name: toolNames.toVendor(definition.name),
        ...(definition.description ? { description: definition.description } : {}),
        inputSchema: { json: prepareInputSchema(definition, warnings) as never },
      },
    });
  }

  if (tools.length === 0) {
    const unsent = toolChoiceWithoutTools(options.toolChoice);
    return { toolNames, warnings: unsent ? [...warnings, unsent] : warnings };
  }
  const toolConfig: ToolConfiguration = { tools };
  const toolChoice = mapToolChoice(options.toolChoice, toolNames, warnings);
  if (toolChoice) toolConfig.toolChoice = toolChoice;
  return { toolConfig, toolNames, warnings };
}

function mapToolChoice(
  toolChoice: ToolChoice | undefined,
  toolNames: ToolNameMapping,
  warnings: Warning[],
): BedrockToolChoice | undefined {
  if (toolChoice === undefined) return undefined;
  if (typeof toolChoice === "object") return { tool: { name: toolNames.toVendor(toolChoice.name) } };
  switch (toolChoice) {
    case "auto":
      return { auto: {} };
    case "required":
      return { any: {} };
    case "none":
      warnings.push({
        code: "tool-choice-unsupported",
        message:
          'Bedrock\'s Converse API has no tool choice "none"; the tools were sent without a tool choice, so the model may still call one.',
      });
      return undefined;
    default: {
      const unknown: never = toolChoice;
      return unknown;
    }
  }
}

function prepareInputSchema(definition: ToolDefinition, warnings: Warning[]): Record<string, unknown> {
  const { schema, warning } = objectInputSchema(definition, { provider: "Bedrock" });
  if (warning) warnings.push(warning);
  return schema;
}
