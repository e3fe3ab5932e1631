import type {
  Tool as AnthropicTool,
  ToolChoice as AnthropicToolChoice,
} from "@anthropic-ai/sdk/resources/messages";
import { objectInputSchema, prepareToolNames, toolChoiceWithoutTools } from "@junction/provider-utils";
import {
  COMMON_TOOL_NAME_RULE,
  type Message,
  type ToolChoice,
  type ToolDefinition,
  type ToolNameMapping,
  type Warning,
} from "@junction/types";
import {
  allowedCallersOf,
  DEFAULT_CODE_EXECUTION,
  type ProgrammaticCodeExecution,
} from "./anthropic-programmatic-tools.js";

/** Tool definitions, tool choice and the name mapping, made to fit the Messages API. */
export interface PreparedAnthropicTools {
  /** Absent when the request has no tools. */
  tools?: AnthropicTool[];
  /** Anthropic's tool search, to send after `tools`, when a definition is deferred. */
  toolSearch?: typeof ANTHROPIC_TOOL_SEARCH;
  toolChoice?: AnthropicToolChoice;
  /** Real tool names ↔ the names sent to Anthropic (`^[a-zA-Z0-9_-]{1,64}$`). */
  toolNames: ToolNameMapping;
  warnings: Warning[];
}

/**
 * Anthropic's server-side tool search (BM25 over the deferred tools' names, descriptions and
 * parameters): https://docs.claude.com/en/docs/agents-and-tools/tool-use/tool-search-tool. Added
 * when a request defers any tool (`defer_loading: true` on its definition).
 */
export const ANTHROPIC_TOOL_SEARCH = {
  type: "tool_search_tool_bm25_20251119",
  name: "tool_search_tool_bm25",
} as const;

/**
 * Prepares tool definitions for the Messages API. Pure: the caller's objects are never
 * mutated.
 *
 * - Names follow `COMMON_TOOL_NAME_RULE` (`prepareToolNames`): the mapping also covers the names
 *   used in the history's tool calls and results, so earlier turns map the same way; a second
 *   tool with a taken name is left out with a warning.
 * - Programmatic tool calling: a tool with `callers` (core's code mode on the provider) gets
 *   `allowed_callers` naming `codeExecution`.
 * - Schemas: the API takes JSON Schema but needs an object schema at the top without
 *   `oneOf`/`anyOf`/`allOf` there. A schema it would reject becomes a permissive object
 *   schema with a warning (the tool itself still validates its input).
 */
export function prepareAnthropicTools(options: {
  tools?: ToolDefinition[];
  toolChoice?: ToolChoice;
  messages: Message[];
  /** The code execution tool that programs run in (for `allowed_callers`). @default DEFAULT_CODE_EXECUTION */
  codeExecution?: ProgrammaticCodeExecution;
}): PreparedAnthropicTools {
  const named = prepareToolNames({ ...options, rule: COMMON_TOOL_NAME_RULE, provider: "Anthropic" });
  const { toolNames, warnings } = named;

  const tools: AnthropicTool[] = [];
  let deferred = false;
  for (const definition of named.tools) {
    const tool: AnthropicTool = {
      name: toolNames.toVendor(definition.name),
      input_schema: prepareInputSchema(definition, warnings),
    };
    if (definition.description) tool.description = definition.description;
    const allowedCallers = allowedCallersOf(
      definition.callers,
      options.codeExecution ?? DEFAULT_CODE_EXECUTION,
    );
    if (allowedCallers) tool.allowed_callers = allowedCallers;
    if (definition.defer === true) {
      tool.defer_loading = true;
      deferred = true;
    }
    tools.push(tool);
  }

  if (tools.length === 0) {
    const unsent = toolChoiceWithoutTools(options.toolChoice);
    return { toolNames, warnings: unsent ? [...warnings, unsent] : warnings };
  }
  return {
    tools,
    ...(deferred ? { toolSearch: ANTHROPIC_TOOL_SEARCH } : {}),
    toolChoice: mapToolChoice(options.toolChoice, toolNames),
    toolNames,
    warnings,
  };
}

function mapToolChoice(
  toolChoice: ToolChoice | undefined,
  toolNames: ToolNameMapping,
): AnthropicToolChoice | undefined {
  if (toolChoice === undefined) return undefined;
  if (typeof toolChoice === "object") return { type: "tool", name: toolNames.toVendor(toolChoice.name) };
  switch (toolChoice) {
    case "auto":
      return { type: "auto" };
    case "none":
      return { type: "none" };
    case "required":
      return { type: "any" };
    default: {
      const unknown: never = toolChoice;
      return unknown;
    }
  }
}

function prepareInputSchema(definition: ToolDefinition, warnings: Warning[]): AnthropicTool.InputSchema {
  const { schema, warning } = objectInputSchema(definition, { provider: "Anthropic" });
  if (warning) warnings.push(warning);
  return schema as AnthropicTool.InputSchema;
}
