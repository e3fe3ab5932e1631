import { CLAUDE_CONTEXT_LIMITS, contextLimitsFor, type ModelContextLimits } from "@junction/provider-utils";
import type { ModelProvider, ProviderCapabilities } from "@junction/types";
import { createBedrockClientLoader } from "./bedrock-client.js";
import { streamBedrock } from "./bedrock-model.js";
import type { BedrockSettings } from "./bedrock-settings.js";

/**
 * What the Bedrock provider carries natively: images (PNG, JPEG, GIF, WebP) and documents (PDF,
 * CSV, DOC, DOCX, XLS, XLSX, HTML, TXT, MD) in tool results and user messages, parallel tool
 * calls, and reasoning where the model has it. Audio is not accepted anywhere; it becomes a
 * warning and a text note.
 */
export const bedrockCapabilities: ProviderCapabilities = {
  toolResultImages: true,
  toolResultAudio: false,
  toolResultDocuments: true,
  userImages: true,
  userAudio: false,
  parallelToolCalls: true,
  reasoning: true,
  // `outputConfig.textFormat` (JSON outputs) and strict tool use are "two complementary mechanisms"
  // of one request (https://docs.aws.amazon.com/bedrock/latest/userguide/structured-output.html).
  structuredOutput: "native-with-tools",
  mediaLimits: {
    // Converse: "Each image's size, height, and width must be no more than 3.75 MB, 8000 px, and
    // 8000 px"; "Each document's size must be no more than 4.5 MB"
    // (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Message.html). Read as
    // decimal megabytes, the stricter reading.
    maxImageBytes: 3_750_000,
    maxDocumentBytes: 4_500_000,
  },
};

/**
 * Creates a model provider for Amazon Bedrock's Converse API (`ConverseStream`), through the
 * official `@aws-sdk/client-bedrock-runtime`. The model is a Bedrock model or inference profile
 * id, for example `us.amazon.nova-pro-v1:0` or an Anthropic Claude inference profile.
 *
 * Vendor options go in `providerOptions.bedrock` and are added to the Converse input as the API
 * names them, for example `additionalModelRequestFields`, `guardrailConfig` or `performanceConfig`.
 *
 * @example
 * import { Agent } from "@junction/core";
 * import { bedrock } from "@junction/provider-bedrock";
 *
 * const agent = new Agent({
 *   provider: bedrock({ region: "us-east-1" }),
 *   model: "us.amazon.nova-pro-v1:0",
 * });
 * const { text } = await agent.send("Hello!").final;
 */
export function bedrock(settings: BedrockSettings = {}): ModelProvider {
  const getClient = createBedrockClientLoader(settings);

  return {
    name: "bedrock",
    capabilities: bedrockCapabilities,
    capabilitiesFor: (model) => ({
      ...bedrockCapabilities,
      ...(contextLimitsFor(model, CLAUDE_CONTEXT_LIMITS) ?? contextLimitsFor(model, BEDROCK_CONTEXT_LIMITS)),
    }),
    stream: (request) =>
      (async function* () {
        const { client, sdk } = await getClient();
        yield* streamBedrock({ client, sdk }, request, settings);
      })(),
  };
}

/**
 * Bedrock's non-Claude models, checked on 2026-11-25 against Amazon's Bedrock model cards,
 * https://docs.aws.amazon.com/bedrock/latest/userguide/model-card-<model>.html ("Context window" and
 * "Max output tokens"), which give rounded figures ("5K", "8K") that are declared as thousands:
 * Nova Lite 300K and 5K; Llama 3.1 405B 128K and 4K; Llama 4 Maverick 1M and 8K. Unconfirmed,
 * from pages other than Amazon's: Nova Pro (300K) and Nova Micro (128K) with Nova Lite's 5K output
 * (Amazon's Nova technical report as summarised by aimodelratings.com: "all 3 models have a max
 * output of 5k tokens"); Nova Premier 1M and 32K (Empirio Labs); Nova 2 Lite 1M (Amazon's Nova 2
 * overview as quoted in a5c-ai/babysitter#1471) and 65,535 output (mixtape-core's model list;
 * Empirio Labs says 32K); Llama 4 Scout 128K on Bedrock (Vercel AI Gateway's provider table) and
 * Maverick's 8K output. Llama 3.1 (8B, 70B), 3.2 and 3.3 were not re-checked: 128K and 8,192 kept
 * from Meta's model cards (unconfirmed). Claude models on Bedrock take Anthropic's limits; Mistral,
 * DeepSeek, Qwen and other Bedrock models declare none.
 */
const BEDROCK_CONTEXT_LIMITS: Readonly<Record<string, ModelContextLimits>> = {
  "nova-2-lite": { contextWindowTokens: 1_000_000, maxOutputTokens: 65_535 },
  "nova-premier": { contextWindowTokens: 1_000_000, maxOutputTokens: 32_000 },
  "nova-pro": { contextWindowTokens: 300_000, maxOutputTokens: 5_000 },
  "nova-lite": { contextWindowTokens: 300_000, maxOutputTokens: 5_000 },
  "nova-micro": { contextWindowTokens: 128_000, maxOutputTokens: 5_000 },
  "llama4-maverick": { contextWindowTokens: 1_000_000, maxOutputTokens: 8_000 },
  "llama4-scout": { contextWindowTokens: 128_000, maxOutputTokens: 8_000 },
  "llama3-1-405b": { contextWindowTokens: 128_000, maxOutputTokens: 4_000 },
  "llama3-1": { contextWindowTokens: 128_000, maxOutputTokens: 8_192 },
  "llama3-2": { contextWindowTokens: 128_000, maxOutputTokens: 8_192 },
  "llama3-3": { contextWindowTokens: 128_000, maxOutputTokens: 8_192 },
};
