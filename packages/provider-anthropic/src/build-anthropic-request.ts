import type { MessageCreateParamsStreaming, ToolUnion } from "@anthropic-ai/sdk/resources/messages";
import {
  isRecord,
  passThroughOptions,
  providerOptionsFor,
  structuredOutputSubset,
} from "@junction/provider-utils";
import type { ModelRequest, ToolNameMapping, Warning } from "@junction/types";
import { lastContainerId, readProgrammaticToolCalling } from "./anthropic-programmatic-tools.js";
import { type AnthropicProviderSettings, anthropicProviderName } from "./anthropic-settings.js";
import { convertToAnthropicMessages } from "./convert-to-anthropic-messages.js";
import { prepareAnthropicTools } from "./prepare-anthropic-tools.js";

/**
 * The `max_tokens` sent when a request gives none (the Messages API requires it): 4096, plus
 * the thinking budget when extended thinking is on, so thinking never eats the whole answer.
 */
export const DEFAULT_MAX_TOKENS = 4096;

/** Request fields Junction sets itself; `providerOptions.anthropic` cannot replace them. */
const reservedFields = ["model", "messages", "stream", "system", "tools"];

/**
 * The streaming request body. `temperature` and `top_p` are no longer in the SDK's types
 * (newer models fix them), but the API still takes them for models that do; they are sent
 * only when the request sets them.
 */
export type AnthropicRequestBody = MessageCreateParamsStreaming & { temperature?: number; top_p?: number };

/** The request body a `ModelRequest` becomes, the warnings on the way, and the tool names used. Pure. */
export function buildAnthropicRequest(
  request: ModelRequest,
  settings: Pick<AnthropicProviderSettings, "defaultMaxTokens">,
): { body: AnthropicRequestBody; warnings: Warning[]; toolNames: ToolNameMapping } {
  const { programmaticToolCalling, ...vendorOptions } = providerOptionsFor(request, anthropicProviderName);
  const codeExecution = readProgrammaticToolCalling(programmaticToolCalling);
  const prepared = prepareAnthropicTools({
    tools: request.tools,
    toolChoice: request.toolChoice,
    messages: request.messages,
    codeExecution,
  });
  const converted = convertToAnthropicMessages(request.messages, { toolNames: prepared.toolNames });
  const passthrough = passThroughOptions(vendorOptions, {
    provider: anthropicProviderName,
    reserved: reservedFields,
  });
  const warnings = [...prepared.warnings, ...converted.warnings, ...passthrough.warnings];

  const body: AnthropicRequestBody = {
    model: request.model,
    max_tokens: request.maxTokens ?? defaultMaxTokens(passthrough.fields.thinking, settings.defaultMaxTokens),
    messages: converted.messages,
    stream: true,
  };
  if (request.system !== undefined && request.system !== "") body.system = request.system;
  if (prepared.tools) {
    const serverTools: ToolUnion[] = [];
    if (prepared.toolSearch) serverTools.push(prepared.toolSearch);
    // Programmatic tool calling: Claude's code runs in Anthropic's code execution tool.
    if (prepared.tools.some((tool) => tool.allowed_callers !== undefined)) {
      serverTools.push({ type: codeExecution, name: "code_execution" });
    }
    body.tools = [...prepared.tools, ...serverTools];
  }
  // Calls made by code execution are answered in the container they paused: its id goes back
  // (a `container` in the vendor options wins).
  const container = lastContainerId(request.messages);
  if (container !== undefined && !("container" in passthrough.fields)) body.container = container;
  if (prepared.toolChoice) body.tool_choice = prepared.toolChoice;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.stopSequences !== undefined && request.stopSequences.length > 0) {
    body.stop_sequences = request.stopSequences;
  }
  Object.assign(body, passthrough.fields);
  if (request.responseFormat) {
    // JSON outputs: `output_config.format` of type `json_schema`, generally available and usable
    // together with tools in the same request. The API takes a subset of JSON Schema (objects
    // closed, no numeric or length constraints, …) and answers anything else with HTTP 400, so
    // the subset is sent and core checks the answer against the full schema
    // (https://platform.claude.com/docs/en/build-with-claude/structured-outputs).
    const subset = structuredOutputSubset(request.responseFormat.schema, { provider: "Anthropic" });
    warnings.push(...subset.warnings);
    const outputConfig = (body as { output_config?: unknown }).output_config;
    if (isRecord(outputConfig) && "format" in outputConfig) {
      warnings.push({
        code: "provider-option-ignored",
        message: `providerOptions.${anthropicProviderName}.output_config.format was ignored: Junction sets the format from the request's output schema. The other output_config fields were kept.`,
      });
    }
    Object.assign(body, {
      output_config: {
        ...(isRecord(outputConfig) ? outputConfig : {}),
        format: { type: "json_schema", schema: subset.schema },
      },
    });
  }
  return { body, warnings, toolNames: prepared.toolNames };
}

function defaultMaxTokens(thinking: unknown, base = DEFAULT_MAX_TOKENS): number {
  const budget =
    typeof thinking === "object" && thinking !== null && (thinking as { type?: unknown }).type === "enabled"
      ? (thinking as { budget_tokens?: unknown }).budget_tokens
      : undefined;
  return typeof budget === "number" ? base + budget : base;
}
