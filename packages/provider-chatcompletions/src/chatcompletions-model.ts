import type { ModelRequest, ModelStreamEvent, Warning } from "@junction/types";
import { JunctionError } from "@junction/types";
import type OpenAI from "openai";
import type { ChatCompletionCreateParamsStreaming } from "openai/resources/chat/completions";
import { ChatCompletionsStreamState } from "./chatcompletions-stream-state.js";
import { convertToChatCompletionsMessages } from "./convert-to-chatcompletions-messages.js";
import type { OpenAIErrorClasses } from "./load-openai-sdk.js";
import { mapChatCompletionsError } from "./map-chatcompletions-error.js";
import { prepareChatCompletionsTools } from "./prepare-chatcompletions-tools.js";

/** What the stream needs from the provider's settings. */
export interface ChatCompletionsModelConfig {
  name: string;
  /** Loads the SDK and makes the client on first use (the SDK is not imported with the package). */
  client: () => Promise<{ client: OpenAI; sdk: OpenAIErrorClasses }>;
  includeUsage: boolean;
  echoReasoning: boolean;
  generateId: () => string;
}

// Fields the provider owns; `providerOptions` may not replace them.
const reservedBodyFields = new Set(["model", "messages", "stream"]);

/** Builds the exact request body for one turn, with the warnings met on the way. */
export function buildChatCompletionsRequest(
  config: Pick<ChatCompletionsModelConfig, "name" | "includeUsage" | "echoReasoning">,
  request: ModelRequest,
) {
  const prepared = prepareChatCompletionsTools({
    tools: request.tools,
    toolChoice: request.toolChoice,
    messages: request.messages,
  });
  const converted = convertToChatCompletionsMessages({
    system: request.system,
    messages: request.messages,
    mapping: prepared.mapping,
    providerName: config.name,
    echoReasoning: config.echoReasoning,
  });
  const warnings: Warning[] = [...prepared.warnings, ...converted.warnings];

  const body: Record<string, unknown> = {
    model: request.model,
    messages: converted.messages,
    stream: true,
  };
  if (config.includeUsage) body.stream_options = { include_usage: true };
  if (prepared.tools) body.tools = prepared.tools;
  if (prepared.toolChoice !== undefined) body.tool_choice = prepared.toolChoice;
  const vendorOptions = request.providerOptions?.[config.name] ?? {};
  // OpenAI's reasoning models reject max_tokens; whoever passes max_completion_tokens wants that field only.
  if (request.maxTokens !== undefined && !("max_completion_tokens" in vendorOptions)) {
    body.max_tokens = request.maxTokens;
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.stopSequences !== undefined && request.stopSequences.length > 0)
    body.stop = request.stopSequences;

  for (const [key, value] of Object.entries(vendorOptions)) {
    if (reservedBodyFields.has(key)) {
      warnings.push({
        code: "provider-option-ignored",
        message: `providerOptions.${config.name}.${key} cannot be overridden and was ignored.`,
      });
      continue;
    }
    body[key] = value;
  }
  return {
    body: body as unknown as ChatCompletionCreateParamsStreaming,
    mapping: prepared.mapping,
    warnings,
  };
}

/**
 * Streams one model turn from a Chat Completions endpoint as neutral events. Failures are
 * thrown as `ProviderError` (HTTP errors after the SDK's retries, errors sent inside the
 * stream, malformed chunks); an aborted `request.signal` stops the HTTP stream and throws
 * `JunctionError` with code `aborted`.
 */
export async function* streamChatCompletions(
  config: ChatCompletionsModelConfig,
  request: ModelRequest,
): AsyncGenerator<ModelStreamEvent> {
  const { body, mapping, warnings } = buildChatCompletionsRequest(config, request);
  for (const warning of warnings) yield { type: "warning", warning };

  const signal = request.signal;
  const state = new ChatCompletionsStreamState(config.name, mapping, config.generateId);
  const { client, sdk } = await config.client();
  let stream: AsyncIterable<unknown> & { controller: AbortController };
  try {
    stream = await client.chat.completions.create(body, signal ? { signal } : undefined);
  } catch (error) {
    throw mapChatCompletionsError(error, config.name, sdk, signal);
  }
  const chunks = stream[Symbol.asyncIterator]();
  try {
    while (true) {
      let next: IteratorResult<unknown>;
      try {
        next = await chunks.next();
      } catch (error) {
        throw mapChatCompletionsError(error, config.name, sdk, signal);
      }
      if (next.done) break;
      yield* state.push(next.value);
    }
    // The SDK ends the iteration quietly when the signal aborts mid-stream.
    if (signal?.aborted) {
      throw new JunctionError("aborted", `The ${config.name} request was aborted.`, { cause: signal.reason });
    }
    yield* state.finish();
  } finally {
    // Stops the HTTP stream when the consumer stops early or a chunk was invalid.
    await chunks.return?.();
  }
}
