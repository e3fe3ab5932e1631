import { passThroughOptions, providerOptionsFor } from "@junction/provider-utils";
import type { JSONSchema, ModelRequest, ToolNameMapping, Warning } from "@junction/types";
import type { ChatCompletionCreateParamsStreaming } from "openai/resources/chat/completions";
import { type ChatCompletionsSettings, chatCompletionsProviderName } from "./chatcompletions-settings.js";
import { convertToChatCompletionsMessages } from "./convert-to-chatcompletions-messages.js";
import { prepareChatCompletionsTools } from "./prepare-chatcompletions-tools.js";
import {
  type ChatCompletionsMessagesCache,
  serializeChatCompletionsMessages,
} from "./serialize-chatcompletions-messages.js";

// Fields the provider owns; `providerOptions` may not replace them.
const reservedFields = ["model", "messages", "stream"];

/** The system message with the answer's schema after it, for JSON mode (which has no schema field). */
function withSchemaInstruction(system: string | undefined, schema: JSONSchema): string {
  const instruction = `Answer with a JSON object that matches this JSON Schema:\n${JSON.stringify(schema)}`;
  return system ? `${system}\n\n${instruction}` : instruction;
}

type RequestSettings = Pick<
  ChatCompletionsSettings,
  "name" | "includeUsage" | "echoReasoning" | "structuredOutputs"
>;

/** The exact request body for one turn, the warnings met on the way, and the tool names used. Pure. */
export function buildChatCompletionsRequest(
  request: ModelRequest,
  settings: RequestSettings,
): { body: ChatCompletionCreateParamsStreaming; warnings: Warning[]; toolNames: ToolNameMapping } {
  const { body, warnings, toolNames } = buildRequest(request, settings);
  return { body: body as unknown as ChatCompletionCreateParamsStreaming, warnings, toolNames };
}

/**
 * {@link buildChatCompletionsRequest}'s body as JSON text: exactly what `JSON.stringify` gives
 * for that body, with the same warnings. Given a cache, the frozen messages the conversation
 * begins with are kept there as JSON for the next request (see `serializeChatCompletionsMessages`),
 * so the requests of a run do not convert and stringify the whole conversation again.
 */
export function serializeChatCompletionsRequest(
  request: ModelRequest,
  settings: RequestSettings,
  cache?: ChatCompletionsMessagesCache,
): { text: string; warnings: Warning[]; toolNames: ToolNameMapping } {
  const built = buildRequest(request, settings, { cache });
  const bodyText = JSON.stringify(built.body);
  // The body's first keys are `model` and `messages` (empty here), so its text begins with the
  // text of those two alone: the messages' JSON goes where that empty array is.
  const at = JSON.stringify({ model: built.body.model, messages: [] }).length - "[]}".length;
  return {
    text: `${bodyText.slice(0, at)}${built.messagesJSON}${bodyText.slice(at + "[]".length)}`,
    warnings: built.warnings,
    toolNames: built.toolNames,
  };
}

/** The body; with `asText`, its `messages` empty and their JSON in `messagesJSON` instead. */
function buildRequest(
  request: ModelRequest,
  settings: RequestSettings,
  asText?: { cache: ChatCompletionsMessagesCache | undefined },
): { body: Record<string, unknown>; messagesJSON: string; warnings: Warning[]; toolNames: ToolNameMapping } {
  const name = chatCompletionsProviderName(settings);
  const prepared = prepareChatCompletionsTools({
    tools: request.tools,
    toolChoice: request.toolChoice,
    messages: request.messages,
  });
  const format = settings.structuredOutputs ?? "json-schema";
  const jsonMode = request.responseFormat !== undefined && format === "json-object";
  const conversion = {
    system: jsonMode ? withSchemaInstruction(request.system, request.responseFormat!.schema) : request.system,
    messages: request.messages,
    toolNames: prepared.toolNames,
    providerName: name,
    echoReasoning: settings.echoReasoning ?? false,
  };
  const converted = asText
    ? { messages: [], ...serializeChatCompletionsMessages(conversion, asText.cache) }
    : { ...convertToChatCompletionsMessages(conversion), json: "" };
  const vendorOptions = providerOptionsFor(request, name);
  const passthrough = passThroughOptions(vendorOptions, { provider: name, reserved: reservedFields });
  const warnings: Warning[] = [...prepared.warnings, ...converted.warnings, ...passthrough.warnings];

  const body: Record<string, unknown> = {
    model: request.model,
    messages: converted.messages,
    stream: true,
  };
  if (settings.includeUsage ?? true) body.stream_options = { include_usage: true };
  if (prepared.tools) body.tools = prepared.tools;
  if (prepared.toolChoice !== undefined) body.tool_choice = prepared.toolChoice;
  // OpenAI's reasoning models reject max_tokens; whoever passes max_completion_tokens wants that field only.
  if (request.maxTokens !== undefined && !("max_completion_tokens" in vendorOptions)) {
    body.max_tokens = request.maxTokens;
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.stopSequences !== undefined && request.stopSequences.length > 0)
    body.stop = request.stopSequences;
  Object.assign(body, passthrough.fields);
  if (request.responseFormat && format === "json-schema") {
    body.response_format = {
      type: "json_schema",
      json_schema: {
        name: request.responseFormat.name ?? "answer",
        ...(request.responseFormat.description !== undefined
          ? { description: request.responseFormat.description }
          : {}),
        schema: request.responseFormat.schema,
      },
    };
  } else if (jsonMode) {
    body.response_format = { type: "json_object" };
  }
  return { body, messagesJSON: converted.json, warnings, toolNames: prepared.toolNames };
}
