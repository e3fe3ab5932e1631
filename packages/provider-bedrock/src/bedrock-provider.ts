import type { BedrockRuntimeClient, BedrockRuntimeClientConfig } from "@aws-sdk/client-bedrock-runtime";
import { loadSetting } from "@junction/provider-utils";
import type { ModelProvider, ProviderCapabilities } from "@junction/types";
import { streamBedrock } from "./bedrock-model.js";
import { type BedrockSDK, loadBedrockSDK } from "./load-bedrock-sdk.js";

/**
 * Settings for {@link bedrock}. Everything left out comes from the AWS SDK's own configuration:
 * region and credentials from its default provider chain, retries from its defaults.
 */
export interface BedrockSettings {
  /**
   * The AWS region, for example `us-east-1`.
   * @default the AWS SDK's region chain: `AWS_REGION`, then the region of your AWS profile
   */
  region?: string;
  /**
   * AWS credentials: an identity (`{ accessKeyId, secretAccessKey, sessionToken? }`) or a function
   * returning one (for example `fromIni()` or `fromNodeProviderChain()` from
   * `@aws-sdk/credential-providers`).
   * @default the AWS SDK's default provider chain: environment variables, SSO and profiles
   * (`AWS_PROFILE`), web identity, container and instance roles
   */
  credentials?: BedrockRuntimeClientConfig["credentials"];
  /**
   * A Bedrock API key, sent as a bearer token instead of signing with AWS credentials.
   * @default `AWS_BEARER_TOKEN_BEDROCK`, read by the AWS SDK itself
   */
  apiKey?: string;
  /** The AWS profile to read credentials and region from (`~/.aws/config`), instead of `AWS_PROFILE`. */
  profile?: string;
  /**
   * The runtime endpoint, as the AWS SDK's `endpoint`: a VPC endpoint, a proxy or a local fake.
   * @default the regional endpoint, `https://bedrock-runtime.<region>.amazonaws.com`
   */
  baseURL?: string;
  /**
   * How often the SDK retries throttling, 5xx and connection errors (with backoff) before the
   * error is thrown. The SDK's `maxAttempts` is this plus one.
   * @default 2
   */
  maxRetries?: number;
  /**
   * The SDK's HTTP handler, or options for its default Node HTTP/2 handler (for example
   * `{ requestTimeout: 60_000 }`).
   */
  requestHandler?: BedrockRuntimeClientConfig["requestHandler"];
  /**
   * `inferenceConfig.maxTokens` for requests that do not set `maxTokens`.
   * @default not sent: the model's own default
   */
  defaultMaxTokens?: number;
}

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
  let loaded: Promise<{ client: BedrockRuntimeClient; sdk: BedrockSDK }> | undefined;
  // The SDK is imported on the first request, not with this package: importing it costs more
  // than the rest of a provider.
  const getClient = () => {
    loaded ??= (async () => {
      const sdk = await loadBedrockSDK();
      const apiKey = loadSetting({ value: settings.apiKey });
      const config: BedrockRuntimeClientConfig = {
        maxAttempts: (settings.maxRetries ?? 2) + 1,
        ...(settings.region !== undefined ? { region: settings.region } : {}),
        ...(settings.credentials !== undefined ? { credentials: settings.credentials } : {}),
        ...(settings.profile !== undefined ? { profile: settings.profile } : {}),
        ...(settings.baseURL !== undefined ? { endpoint: settings.baseURL } : {}),
        ...(settings.requestHandler !== undefined ? { requestHandler: settings.requestHandler } : {}),
        ...(apiKey !== undefined
          ? { token: { token: apiKey }, authSchemePreference: ["httpBearerAuth"] }
          : {}),
      };
      return { client: new sdk.BedrockRuntimeClient(config), sdk };
    })().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    });
    return loaded;
  };

  return {
    name: "bedrock",
    capabilities: bedrockCapabilities,
    stream: (request) =>
      (async function* () {
        const { client, sdk } = await getClient();
        yield* streamBedrock(client, sdk, request, settings);
      })(),
  };
}
