import { isRecord, prepareToolNames } from "@junction/provider-utils";
import {
  COMMON_TOOL_NAME_RULE,
  type JSONSchema,
  type Message,
  type ToolChoice,
  type ToolDefinition,
  type ToolNameMapping,
  type Warning,
} from "@junction/types";
import type OpenAI from "openai";
import { allowedCallersFor, OPENAI_PROGRAMMATIC_TOOL_CALLING } from "./openai-programmatic-tools.js";
import { toOpenAIStrictSchema } from "./openai-strict-schema.js";

/** A function tool as the Responses API takes it. */
export type OpenAIFunctionTool = OpenAI.Responses.FunctionTool;
/**
 * A tool Junction builds for a Responses API request: a function, a namespace of them, the tool
 * search, or Programmatic Tool Calling.
 */
export type OpenAIRequestTool =
  | OpenAIFunctionTool
  | OpenAI.Responses.NamespaceTool
  | OpenAI.Responses.ToolSearchTool
  | OpenAI.Responses.Tool.ProgrammaticToolCalling;
/** `tool_choice` as the Responses API takes it. */
export type OpenAIToolChoice = OpenAI.Responses.ResponseCreateParams["tool_choice"];

/**
 * OpenAI's hosted tool search (https://developers.openai.com/api/docs/guides/tools-tool-search):
 * added when a request defers any tool. OpenAI searches the deferred tools on its side and loads
 * what it finds within the same response.
 */
export const OPENAI_TOOL_SEARCH: OpenAI.Responses.ToolSearchTool = { type: "tool_search" };

/** Tool definitions, tool choice and the name mapping, ready for a Responses API request. */
export interface PreparedOpenAITools {
  tools: OpenAIRequestTool[] | undefined;
  toolChoice: OpenAIToolChoice | undefined;
  /** Maps real tool names to the names sent, and back. */
  toolNames: ToolNameMapping;
  warnings: Warning[];
}

/**
 * Prepares tool definitions for the Responses API. Pure: the caller's objects are never mutated.
 *
 * - Names follow `^[a-zA-Z0-9_-]{1,64}$` (`prepareToolNames`). The mapping also covers the names
 *   of tool calls in the history, so earlier turns map the same way even when a tool is gone; a
 *   second tool with a taken name is left out with a warning (OpenAI rejects a name declared twice).
 * - The Responses API makes function tools strict by default, so `strict` is always sent:
 *   `false` unless `strict` is asked for. In strict mode each schema is rewritten to OpenAI's
 *   rules; a schema that cannot be strict stays non-strict, with a warning.
 * - Schemas get the `type: "object"` and `properties` the API insists on when they lack them.
 * - A definition marked `defer: true` (the Agent does that only where the model has OpenAI's tool
 *   search) is sent with `defer_loading: true`, inside a namespace named after its `group` when it
 *   has one (the model sees the namespace's name and description until the search loads its
 *   functions; OpenAI recommends namespaces), and `{ type: "tool_search" }` is added. A tool named
 *   by `toolChoice` is always sent loaded: a deferred tool cannot be forced.
 * - A definition with `callers` (set by an Agent whose code mode runs programs on OpenAI) gets
 *   `allowed_callers` (`code` → `["programmatic"]`, `both` → `["direct", "programmatic"]`), and
 *   `{ type: "programmatic_tool_calling" }` is added after the functions, which is what lets the
 *   model write programs that call them
 *   (https://developers.openai.com/api/docs/guides/tools-programmatic-tool-calling.md).
 */
export function prepareOpenAITools(options: {
  tools: ToolDefinition[] | undefined;
  toolChoice: ToolChoice | undefined;
  messages: Message[];
  strict: boolean;
}): PreparedOpenAITools {
  const {
    tools: definitions,
    toolNames,
    warnings,
  } = prepareToolNames({ ...options, rule: COMMON_TOOL_NAME_RULE, provider: "OpenAI" });

  const functions = definitions.map((tool): OpenAIFunctionTool => {
    const parameters = objectSchema(tool, warnings);
    let strict = false;
    let sentParameters = parameters;
    if (options.strict) {
      const result = toOpenAIStrictSchema(parameters);
      if (result.ok) {
        strict = true;
        sentParameters = result.schema;
        if (result.removed.length > 0)
          warnings.push({
            code: "tool-schema-keywords-removed",
            message: `Tool "${tool.name}": strict mode does not support ${result.removed.join(", ")}; removed from the schema sent to OpenAI (the tool still validates its input).`,
          });
      } else {
        warnings.push({
          code: "tool-schema-not-strict",
          message: `Tool "${tool.name}" is sent without strict mode: ${result.reason}.`,
        });
      }
    }
    const prepared: OpenAIFunctionTool = {
      type: "function",
      name: toolNames.toVendor(tool.name),
      parameters: sentParameters,
      strict,
    };
    if (tool.description) prepared.description = tool.description;
    const allowedCallers = allowedCallersFor(tool.callers);
    if (allowedCallers) prepared.allowed_callers = allowedCallers;
    return prepared;
  });

  const forced = typeof options.toolChoice === "object" ? options.toolChoice.name : undefined;
  const tools = withDeferredLoading(
    definitions.map((definition, index) => ({
      definition,
      tool: functions[index]!,
      deferred: definition.defer === true && definition.name !== forced,
    })),
  );
  if (functions.some((tool) => tool.allowed_callers)) tools.push(OPENAI_PROGRAMMATIC_TOOL_CALLING);
  return {
    tools: tools.length > 0 ? tools : undefined,
    toolChoice: mapToolChoice(options.toolChoice, { toolNames, definitions }, warnings),
    toolNames,
    warnings,
  };
}

/**
 * The functions as sent: deferred ones with `defer_loading`, grouped into one namespace per
 * `group` (at the place of the group's first function), and the tool search after them all.
 */
function withDeferredLoading(
  entries: { definition: ToolDefinition; tool: OpenAIFunctionTool; deferred: boolean }[],
): OpenAIRequestTool[] {
  const tools: OpenAIRequestTool[] = [];
  const namespaces = new Map<string, OpenAI.Responses.NamespaceTool>();
  const taken = new Set(entries.map((entry) => entry.tool.name));
  let deferred = false;
  for (const { definition, tool, deferred: isDeferred } of entries) {
    if (!isDeferred) {
      tools.push(tool);
      continue;
    }
    deferred = true;
    const group = definition.group;
    if (!group) {
      tools.push({ ...tool, defer_loading: true });
      continue;
    }
    let namespace = namespaces.get(group.name);
    if (!namespace) {
      namespace = {
        type: "namespace",
        name: namespaceName(group.name, taken),
        description: group.description,
        tools: [],
      };
      namespaces.set(group.name, namespace);
      tools.push(namespace);
    }
    const { type, name, description, parameters, strict, allowed_callers } = tool;
    namespace.tools.push({
      type,
      name,
      ...(description ? { description } : {}),
      parameters,
      strict,
      ...(allowed_callers ? { allowed_callers } : {}),
      defer_loading: true,
    });
  }
  if (deferred) tools.push(OPENAI_TOOL_SEARCH);
  return tools;
}

/** A namespace name OpenAI takes (the function-name rule), unlike any function's or other namespace's. */
function namespaceName(group: string, taken: Set<string>): string {
  const base = (group.replace(/[^a-zA-Z0-9_-]/g, "_") || "tools").slice(0, 60);
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
  taken.add(name);
  return name;
}

function objectSchema(tool: ToolDefinition, warnings: Warning[]): JSONSchema {
  const schema = tool.inputSchema;
  if (!isRecord(schema)) {
    warnings.push({
      code: "tool-schema-invalid",
      message: `Tool "${tool.name}" has no valid input schema; sent as an object accepting any properties.`,
    });
    return { type: "object", properties: {} };
  }
  if (schema.type !== undefined && schema.type !== "object") {
    warnings.push({
      code: "tool-schema-invalid",
      message: `Tool "${tool.name}": OpenAI needs an object schema for function parameters, got type ${JSON.stringify(schema.type)}; sent as an object accepting any properties.`,
    });
    return { type: "object", properties: {} };
  }
  if (schema.type === "object" && "properties" in schema) return schema;
  return { ...schema, type: "object", properties: schema.properties ?? {} };
}

function mapToolChoice(
  choice: ToolChoice | undefined,
  { toolNames, definitions }: { toolNames: ToolNameMapping; definitions: ToolDefinition[] },
  warnings: Warning[],
): OpenAIToolChoice | undefined {
  if (choice === undefined) return undefined;
  if (typeof choice === "string") return choice;
  if (!definitions.some((tool) => tool.name === choice.name))
    warnings.push({
      code: "tool-choice-unknown-tool",
      message: `Tool choice names "${choice.name}", which is not among the tools of this request.`,
    });
  return { type: "function", name: toolNames.toVendor(choice.name) };
}
