import { passThroughOptions, providerOptionsFor } from "@junction/provider-utils";
import type { ModelRequest, ResponseFormat, ToolNameMapping, Warning } from "@junction/types";
import type OpenAI from "openai";
import { convertToOpenAIMessages } from "./convert-to-openai-messages.js";
import { type OpenAIProviderSettings, openAIProviderName } from "./openai-settings.js";
import { toOpenAIStrictSchema } from "./openai-strict-schema.js";
import { prepareOpenAITools } from "./prepare-openai-tools.js";

/** The body of a streaming Responses API request. */
export type OpenAIRequestBody = OpenAI.Responses.ResponseCreateParamsStreaming;

// Request fields Junction builds itself; a provider option cannot replace them. (`tools` is
// read separately: hosted tools given there are sent after the request's function tools.)
const reservedOptions = ["model", "input", "instructions", "stream"];

/**
 * Builds the Responses API request body for a model request. Pure.
 *
 * `providerOptions.openai` is passed through as Responses API fields (`store`, `reasoning`,
 * `parallel_tool_calls`, `include`, `service_tier`, `text`, …), except `strictTools`, which
 * Junction reads itself, and `tools`: OpenAI's hosted tools (`web_search`, `mcp`, `file_search`, …),
 * sent after the function tools Junction builds from `request.tools`. With `store: false` and `reasoning` set, `include` gets
 * `reasoning.encrypted_content` so reasoning can be echoed on the next turn.
 */
export function buildOpenAIRequest(
  request: ModelRequest,
  settings: Pick<OpenAIProviderSettings, "strictTools">,
): {
  body: OpenAIRequestBody;
  warnings: Warning[];
  toolNames: ToolNameMapping;
  /**
   * The programs (Programmatic Tool Calling) the conversation holds, which the response may go on
   * with: their code, by `call_id`.
   */
  programs: Map<string, string>;
} {
  const {
    strictTools,
    tools: hostedTools,
    ...vendorOptions
  } = providerOptionsFor(request, openAIProviderName);
  const warnings: Warning[] = [];
  const prepared = prepareOpenAITools({
    tools: request.tools,
    toolChoice: request.toolChoice,
    messages: request.messages,
    strict: typeof strictTools === "boolean" ? strictTools : (settings.strictTools ?? false),
  });
  warnings.push(...prepared.warnings);
  const converted = convertToOpenAIMessages({
    messages: request.messages,
    toolNames: prepared.toolNames,
    providerName: openAIProviderName,
  });
  warnings.push(...converted.warnings);

  const body: Record<string, unknown> = { model: request.model, input: converted.input };
  if (request.system) body.instructions = request.system;
  const tools: unknown[] = [...(prepared.tools ?? [])];
  if (Array.isArray(hostedTools)) tools.push(...hostedTools);
  else if (hostedTools !== undefined)
    warnings.push({
      code: "provider-option-ignored",
      message: `providerOptions.${openAIProviderName}.tools was ignored: it must be an array of OpenAI tools (hosted tools such as { type: "web_search" }).`,
    });
  if (tools.length > 0) body.tools = tools;
  if (prepared.toolChoice !== undefined) body.tool_choice = prepared.toolChoice;
  if (request.maxTokens !== undefined) body.max_output_tokens = request.maxTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.stopSequences && request.stopSequences.length > 0)
    warnings.push({
      code: "setting-unsupported",
      message: "The OpenAI Responses API has no stop sequences; stopSequences is ignored.",
    });

  const passed = passThroughOptions(vendorOptions, {
    provider: openAIProviderName,
    reserved: reservedOptions,
  });
  warnings.push(...passed.warnings);
  Object.assign(body, passed.fields);
  if (request.responseFormat) {
    // Structured Outputs in the Responses API: `text.format` of type `json_schema`
    // (https://platform.openai.com/docs/guides/structured-outputs?api-mode=responses); it goes with
    // function tools on the same request. Other `text` fields passed through (`verbosity`) stay.
    const text = typeof body.text === "object" && body.text !== null ? body.text : {};
    body.text = { ...text, format: openAITextFormat(request.responseFormat, warnings) };
  }
  if (body.store === false && body.reasoning !== undefined) {
    const include = Array.isArray(body.include) ? body.include : [];
    if (!include.includes("reasoning.encrypted_content"))
      body.include = [...include, "reasoning.encrypted_content"];
  }
  body.stream = true;
  return {
    body: body as unknown as OpenAIRequestBody,
    warnings,
    toolNames: prepared.toolNames,
    programs: converted.programs,
  };
}

/**
 * The `json_schema` format for a requested answer: strict where the schema fits strict mode (its
 * rules made to fit by the strict-schema converter, with a warning for what it removed), else
 * `strict: false` with the schema as given and a warning. Core checks the answer either way.
 */
export function openAITextFormat(format: ResponseFormat, warnings: Warning[]): Record<string, unknown> {
  const strict = toOpenAIStrictSchema(format.schema);
  if (!strict.ok) {
    warnings.push({
      code: "output-schema-not-strict",
      message: `The output schema cannot use OpenAI's strict mode (${strict.reason}); it is sent with strict: false, and the answer is checked when it arrives.`,
    });
  } else if (strict.removed.length > 0) {
    warnings.push({
      code: "output-schema-loosened",
      message: `OpenAI's strict mode does not take ${strict.removed.join(", ")}; left out of the schema sent, still checked on the answer.`,
    });
  }
  return {
    type: "json_schema",
    name: format.name ?? "answer",
    ...(format.description !== undefined ? { description: format.description } : {}),
    schema: strict.ok ? strict.schema : format.schema,
    strict: strict.ok,
  };
}
