import {
  JunctionError,
  type ModelRequest,
  type ModelStreamEvent,
  ProviderError,
  type Warning,
} from "@junction/types";
import type OpenAI from "openai";
import { convertToOpenAIMessages } from "./convert-to-openai-messages.js";
import type { OpenAIErrorClasses } from "./load-openai-sdk.js";
import { mapOpenAIError } from "./map-openai-error.js";
import { OpenAIStreamMapper } from "./map-openai-stream.js";
import { prepareOpenAITools } from "./prepare-openai-tools.js";

type CreateParams = OpenAI.Responses.ResponseCreateParamsStreaming;

// Request fields Junction builds itself; a provider option cannot replace them.
const reservedOptions = new Set(["model", "input", "instructions", "tools", "stream"]);

/**
 * Builds the Responses API request body for a model request. Pure.
 *
 * `providerOptions[providerName]` is passed through as Responses API fields (`store`,
 * `reasoning`, `parallel_tool_calls`, `include`, `service_tier`, `text`, …), except `strictTools`,
 * which Junction reads itself. With `store: false` and `reasoning` set, `include` gets
 * `reasoning.encrypted_content` so reasoning can be echoed on the next turn.
 */
export function buildOpenAIRequest(
  request: ModelRequest,
  options: { providerName: string; strictTools: boolean },
): {
  body: CreateParams;
  toolNames: ReturnType<typeof prepareOpenAITools>["toolNames"];
  warnings: Warning[];
} {
  const { strictTools, ...vendorOptions } = request.providerOptions?.[options.providerName] ?? {};
  const warnings: Warning[] = [];
  const prepared = prepareOpenAITools({
    tools: request.tools,
    toolChoice: request.toolChoice,
    messages: request.messages,
    strict: typeof strictTools === "boolean" ? strictTools : options.strictTools,
  });
  warnings.push(...prepared.warnings);
  const converted = convertToOpenAIMessages({
    messages: request.messages,
    toolNames: prepared.toolNames,
    providerName: options.providerName,
  });
  warnings.push(...converted.warnings);

  const body: Record<string, unknown> = { model: request.model, input: converted.input };
  if (request.system) body.instructions = request.system;
  if (prepared.tools) body.tools = prepared.tools;
  if (prepared.toolChoice !== undefined) body.tool_choice = prepared.toolChoice;
  if (request.maxTokens !== undefined) body.max_output_tokens = request.maxTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.stopSequences && request.stopSequences.length > 0)
    warnings.push({
      code: "setting-unsupported",
      message: "The OpenAI Responses API has no stop sequences; stopSequences is ignored.",
    });

  for (const [key, value] of Object.entries(vendorOptions)) {
    if (reservedOptions.has(key)) {
      warnings.push({
        code: "provider-option-ignored",
        message: `providerOptions.${options.providerName}.${key} is ignored: Junction builds "${key}" from the request itself.`,
      });
      continue;
    }
    body[key] = value;
  }
  if (body.store === false && body.reasoning !== undefined) {
    const include = Array.isArray(body.include) ? body.include : [];
    if (!include.includes("reasoning.encrypted_content"))
      body.include = [...include, "reasoning.encrypted_content"];
  }
  body.stream = true;
  return { body: body as unknown as CreateParams, toolNames: prepared.toolNames, warnings };
}

/**
 * Streams one turn from the Responses API: sends the request through the `openai` SDK (which
 * retries 408/409/429/5xx itself), maps each event, and throws a `ProviderError` for HTTP errors,
 * `error` / `response.failed` events inside the stream, and a stream that ends without a
 * `response.completed` or `response.incomplete`. An aborted `request.signal` stops the HTTP
 * stream and throws `JunctionError("aborted")`.
 */
export async function* streamOpenAIResponse(
  client: OpenAI,
  request: ModelRequest,
  options: { providerName: string; strictTools: boolean; sdk: OpenAIErrorClasses },
): AsyncGenerator<ModelStreamEvent> {
  const { providerName } = options;
  const { body, toolNames, warnings } = buildOpenAIRequest(request, options);
  for (const warning of warnings) yield { type: "warning", warning };

  const signal = request.signal;
  let requestId: string | undefined;
  let mapper: OpenAIStreamMapper | undefined;
  try {
    const { data, request_id } = await client.responses.create(body, { signal }).withResponse();
    requestId = request_id ?? undefined;
    mapper = new OpenAIStreamMapper({ toolNames, providerName, requestId });
    for await (const event of data) {
      yield* mapper.push(event);
      if (mapper.finished) break;
    }
  } catch (error) {
    throw mapOpenAIError(error, {
      providerName,
      requestId,
      signal,
      streaming: mapper !== undefined,
      sdk: options.sdk,
    });
  }
  // The SDK ends the iteration quietly when the request is aborted mid-stream.
  if (signal?.aborted)
    throw new JunctionError("aborted", "The OpenAI request was aborted.", { cause: signal.reason });
  if (!mapper?.finished)
    throw new ProviderError({
      code: "provider-stream-error",
      provider: providerName,
      message: "The OpenAI stream ended before response.completed.",
      retryable: true,
      requestId,
    });
}
