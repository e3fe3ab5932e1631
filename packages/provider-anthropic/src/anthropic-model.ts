import type Anthropic from "@anthropic-ai/sdk";
import type { MessageCreateParamsStreaming } from "@anthropic-ai/sdk/resources/messages";
import type { ModelRequest, ModelStreamEvent, Warning } from "@junction/types";
import { AnthropicStreamState } from "./anthropic-stream-state.js";
import { convertToAnthropicMessages } from "./convert-to-anthropic-messages.js";
import type { AnthropicErrorClasses } from "./load-anthropic-sdk.js";
import { abortedError, mapAnthropicError } from "./map-anthropic-error.js";
import { prepareAnthropicTools } from "./prepare-anthropic-tools.js";

/**
 * The `max_tokens` sent when a request gives none (the Messages API requires it): 4096, plus
 * the thinking budget when extended thinking is on, so thinking never eats the whole answer.
 */
export const DEFAULT_MAX_TOKENS = 4096;

/** Request fields Junction sets itself; `providerOptions.anthropic` cannot replace them. */
const reservedFields = new Set(["model", "messages", "stream", "system", "tools"]);

/**
 * The streaming request body. `temperature` and `top_p` are no longer in the SDK's types
 * (newer models fix them), but the API still takes them for models that do; they are sent
 * only when the request sets them.
 */
export type AnthropicRequestBody = MessageCreateParamsStreaming & { temperature?: number; top_p?: number };

/** The request body a `ModelRequest` becomes, and the warnings on the way. */
export function buildAnthropicRequest(
  request: ModelRequest,
  options: { providerName: string; defaultMaxTokens?: number },
): {
  body: AnthropicRequestBody;
  warnings: Warning[];
  toolNames: ReturnType<typeof prepareAnthropicTools>["toolNames"];
} {
  const prepared = prepareAnthropicTools({
    tools: request.tools,
    toolChoice: request.toolChoice,
    messages: request.messages,
  });
  const converted = convertToAnthropicMessages(request.messages, { toolNames: prepared.toolNames });
  const warnings = [...prepared.warnings, ...converted.warnings];

  const passthrough: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(request.providerOptions?.[options.providerName] ?? {})) {
    if (reservedFields.has(key)) {
      warnings.push({
        code: "provider-option-ignored",
        message: `providerOptions.${options.providerName}.${key} was ignored: Junction sets "${key}" from the request itself.`,
      });
    } else {
      passthrough[key] = value;
    }
  }

  const body: AnthropicRequestBody = {
    model: request.model,
    max_tokens: request.maxTokens ?? defaultMaxTokens(passthrough.thinking, options.defaultMaxTokens),
    messages: converted.messages,
    stream: true,
  };
  if (request.system !== undefined && request.system !== "") body.system = request.system;
  if (prepared.tools) body.tools = prepared.tools;
  if (prepared.toolChoice) body.tool_choice = prepared.toolChoice;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.stopSequences !== undefined && request.stopSequences.length > 0) {
    body.stop_sequences = request.stopSequences;
  }
  Object.assign(body, passthrough);
  return { body, warnings, toolNames: prepared.toolNames };
}

function defaultMaxTokens(thinking: unknown, base = DEFAULT_MAX_TOKENS): number {
  const budget =
    typeof thinking === "object" && thinking !== null && (thinking as { type?: unknown }).type === "enabled"
      ? (thinking as { budget_tokens?: unknown }).budget_tokens
      : undefined;
  return typeof budget === "number" ? base + budget : base;
}

/**
 * Streams one model turn through the SDK's `messages.create({ stream: true })`. Warnings
 * from converting the request come first, then the turn's events, then `finish`. Failures
 * are thrown as `ProviderError`; an aborted signal stops the HTTP stream and throws a
 * `JunctionError` with code `aborted`.
 */
export async function* streamAnthropic(
  client: Anthropic,
  request: ModelRequest,
  options: { providerName: string; defaultMaxTokens?: number; sdk: AnthropicErrorClasses },
): AsyncGenerator<ModelStreamEvent> {
  const { providerName } = options;
  const signal = request.signal;
  if (signal?.aborted) throw abortedError(signal);

  const { body, warnings, toolNames } = buildAnthropicRequest(request, options);
  for (const warning of warnings) yield { type: "warning", warning };

  const state = new AnthropicStreamState({ toolNames, providerName });
  try {
    const stream = await client.messages.create(body, signal ? { signal } : undefined);
    for await (const event of stream) {
      if (signal?.aborted) break;
      yield* state.push(event);
    }
  } catch (error) {
    throw mapAnthropicError(error, { provider: providerName, signal, sdk: options.sdk });
  }
  // The SDK ends a stream quietly when its request is aborted: the signal says why it ended.
  if (signal?.aborted) throw abortedError(signal);
  yield state.finish();
}
