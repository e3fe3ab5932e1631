import { prepareToolNames } from "@junction/provider-utils";
import {
  COMMON_TOOL_NAME_RULE,
  type JSONSchema,
  type Message,
  type ToolChoice,
  type ToolDefinition,
  type ToolNameMapping,
  type Warning,
} from "@junction/types";
import type {
  ChatCompletionFunctionTool,
  ChatCompletionToolChoiceOption,
} from "openai/resources/chat/completions";

/** What `prepareChatCompletionsTools` returns: the wire tools, the name mapping and any warnings. */
export interface PreparedChatCompletionsTools {
  tools: ChatCompletionFunctionTool[] | undefined;
  toolChoice: ChatCompletionToolChoiceOption | undefined;
  toolNames: ToolNameMapping;
  warnings: Warning[];
}

/**
 * Turns tool definitions into Chat Completions `tools`: names made to fit
 * `^[a-zA-Z0-9_-]{1,64}$` (the mapping also covers names used by tool calls earlier in the
 * history, so those turns are sent with the same names; a second tool with a taken name is left
 * out with a warning), and schemas copied and cleaned to what compatible servers accept. The
 * caller's objects are never mutated.
 */
export function prepareChatCompletionsTools(options: {
  tools: ToolDefinition[] | undefined;
  toolChoice: ToolChoice | undefined;
  messages: Message[];
}): PreparedChatCompletionsTools {
  const { tools, toolNames, warnings } = prepareToolNames({
    ...options,
    rule: COMMON_TOOL_NAME_RULE,
    provider: "Chat Completions",
  });

  const wireTools: ChatCompletionFunctionTool[] = tools.map((tool) => ({
    type: "function",
    function: {
      name: toolNames.toVendor(tool.name),
      description: tool.description,
      parameters: cleanParameters(tool.inputSchema, tool.name, warnings),
    },
  }));

  let toolChoice: ChatCompletionToolChoiceOption | undefined;
  const choice = options.toolChoice;
  if (choice === undefined) toolChoice = undefined;
  else if (typeof choice === "string") toolChoice = choice;
  else if (choice.type === "tool") {
    if (!tools.some((tool) => tool.name === choice.name)) {
      warnings.push({
        code: "tool-choice-unknown-tool",
        message: `toolChoice names "${choice.name}", which is not among the request's tools; it is sent anyway.`,
      });
    }
    toolChoice = { type: "function", function: { name: toolNames.toVendor(choice.name) } };
  } else {
    const unknown: never = choice.type;
    warnings.push({
      code: "tool-choice-unsupported",
      message: `Unknown toolChoice ${String(unknown)}; ignored.`,
    });
  }

  return { tools: wireTools.length > 0 ? wireTools : undefined, toolChoice, toolNames, warnings };
}

// Keywords some compatible servers reject at the top of `parameters` (Gemini's OpenAI
// endpoint and several llama.cpp grammars fail on `$schema`); they carry no meaning for the model.
const droppedTopLevelKeys = new Set(["$schema", "$id"]);

/**
 * Copies an input schema into a `parameters` object: always `type: "object"` with
 * `properties`, without `$schema`/`$id`. Anything else passes through untouched; the server
 * (and the tool itself) validate.
 */
function cleanParameters(schema: JSONSchema, toolName: string, warnings: Warning[]): Record<string, unknown> {
  const copy = structuredClone(schema ?? {}) as Record<string, unknown>;
  for (const key of droppedTopLevelKeys) delete copy[key];
  if (copy.type !== undefined && copy.type !== "object") {
    warnings.push({
      code: "tool-schema-not-object",
      message: `Tool "${toolName}" has an input schema of type ${JSON.stringify(copy.type)}; Chat Completions needs an object, so a permissive object schema is sent instead.`,
    });
    return { type: "object", properties: {} };
  }
  copy.type = "object";
  if (copy.properties === undefined || copy.properties === null) copy.properties = {};
  return copy;
}
