import type { ConverseStreamCommandInput, InferenceConfiguration } from "@aws-sdk/client-bedrock-runtime";
import {
  isRecord,
  passThroughOptions,
  providerOptionsFor,
  structuredOutputSubset,
} from "@junction/provider-utils";
import type { ModelRequest, ToolNameMapping, Warning } from "@junction/types";
import { type BedrockSettings, bedrockProviderName } from "./bedrock-settings.js";
import { convertToBedrockMessages } from "./convert-to-bedrock-messages.js";
import { prepareBedrockTools } from "./prepare-bedrock-tools.js";

/** Input fields Junction sets itself; `providerOptions.bedrock` cannot replace them. */
const reservedFields = ["modelId", "messages", "system", "toolConfig", "inferenceConfig"];

/** The ConverseStream input: `modelId` goes in the URL path, the rest is the JSON body. */
export type BedrockRequestBody = ConverseStreamCommandInput;

/**
 * The ConverseStream input a `ModelRequest` becomes, the warnings on the way, and the tool names
 * used. Pure.
 *
 * `providerOptions.bedrock` fields are added to the input as the API names them, for example
 * `additionalModelRequestFields` (extended thinking: `{ thinking: { type: "enabled", budget_tokens: 2048 } }`
 * for Anthropic models, `reasoningConfig` for Nova), `guardrailConfig`, `performanceConfig`,
 * `requestMetadata` or `serviceTier`.
 */
export function buildBedrockRequest(
  request: ModelRequest,
  settings: Pick<BedrockSettings, "defaultMaxTokens">,
): { body: BedrockRequestBody; warnings: Warning[]; toolNames: ToolNameMapping } {
  const prepared = prepareBedrockTools({
    tools: request.tools,
    toolChoice: request.toolChoice,
    messages: request.messages,
  });
  const converted = convertToBedrockMessages(request.messages, {
    toolNames: prepared.toolNames,
    toolsAsText: prepared.toolConfig === undefined,
  });
  const passthrough = passThroughOptions(providerOptionsFor(request, bedrockProviderName), {
    provider: bedrockProviderName,
    reserved: reservedFields,
  });
  const warnings = [...prepared.warnings, ...converted.warnings, ...passthrough.warnings];

  const body: BedrockRequestBody = { modelId: request.model, messages: converted.messages };
  if (request.system !== undefined && request.system !== "") body.system = [{ text: request.system }];
  if (prepared.toolConfig) body.toolConfig = prepared.toolConfig;

  const inferenceConfig: InferenceConfiguration = {};
  const maxTokens = request.maxTokens ?? settings.defaultMaxTokens;
  if (maxTokens !== undefined) inferenceConfig.maxTokens = maxTokens;
  if (request.temperature !== undefined) inferenceConfig.temperature = request.temperature;
  if (request.topP !== undefined) inferenceConfig.topP = request.topP;
  if (request.stopSequences !== undefined && request.stopSequences.length > 0) {
    inferenceConfig.stopSequences = request.stopSequences;
  }
  if (Object.keys(inferenceConfig).length > 0) body.inferenceConfig = inferenceConfig;
  Object.assign(body, passthrough.fields);
  const format = request.responseFormat;
  if (format) {
    // Converse structured output: `outputConfig.textFormat` of type `json_schema`, the schema as a
    // JSON string (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_OutputFormat.html,
    // https://docs.aws.amazon.com/bedrock/latest/userguide/structured-output.html). Converse takes
    // a subset of JSON Schema (objects closed, no numeric or length constraints, …) and answers
    // anything else with HTTP 400, so the subset is sent and core checks the answer against the
    // full schema. The user's other `outputConfig` fields (`effort`) stay.
    const subset = structuredOutputSubset(format.schema, { provider: "Bedrock" });
    warnings.push(...subset.warnings);
    const outputConfig: unknown = passthrough.fields.outputConfig;
    if (isRecord(outputConfig) && "textFormat" in outputConfig) {
      warnings.push({
        code: "provider-option-ignored",
        message: `providerOptions.${bedrockProviderName}.outputConfig.textFormat was ignored: Junction sets the format from the request's output schema. The other outputConfig fields were kept.`,
      });
    }
    body.outputConfig = {
      ...(isRecord(outputConfig) ? outputConfig : {}),
      textFormat: {
        type: "json_schema",
        structure: {
          jsonSchema: {
            schema: JSON.stringify(subset.schema),
            name: format.name ?? "answer",
            ...(format.description !== undefined ? { description: format.description } : {}),
          },
        },
      },
    };
  }
  return { body, warnings, toolNames: prepared.toolNames };
}
