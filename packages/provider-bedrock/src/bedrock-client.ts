import type { BedrockRuntimeClient, BedrockRuntimeClientConfig } from "@aws-sdk/client-bedrock-runtime";
import { loadSetting } from "@junction/provider-utils";
import type { BedrockSettings } from "./bedrock-settings.js";
import { type BedrockSDK, loadBedrockSDK } from "./load-bedrock-sdk.js";

/**
 * Makes the SDK client for a provider's settings on first use (the SDK is imported then, not
 * with this package: importing it costs more than the rest of a provider). A failed load is not
 * kept: the next call tries again.
 */
export function createBedrockClientLoader(
  settings: BedrockSettings,
): () => Promise<{ client: BedrockRuntimeClient; sdk: BedrockSDK }> {
  let loaded: Promise<{ client: BedrockRuntimeClient; sdk: BedrockSDK }> | undefined;
  return () => {
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
}
