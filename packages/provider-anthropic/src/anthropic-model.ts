import type Anthropic from "@anthropic-ai/sdk";
import { browserRefusalError, loadApiKey, loadSetting, toAbortError } from "@junction/provider-utils";
import type { ModelRequest, ModelStreamEvent } from "@junction/types";
import { programSourcesOf } from "./anthropic-programmatic-tools.js";
import { type AnthropicProviderSettings, anthropicProviderName } from "./anthropic-settings.js";
import { AnthropicStreamState } from "./anthropic-stream-state.js";
import { buildAnthropicRequest } from "./build-anthropic-request.js";
import { type AnthropicSDK, loadAnthropicSDK } from "./load-anthropic-sdk.js";
import { mapAnthropicError } from "./map-anthropic-error.js";

/**
 * The provider's only I/O: reads the key and loads the SDK on the first request, then streams
 * each turn through `messages.create({ stream: true })`. Warnings from building the request
 * come first, then the turn's events, then `finish`. Failures are thrown as `ProviderError`; an
 * aborted signal stops the HTTP stream and throws the `aborted` error.
 */
export function createAnthropicModel(
  settings: AnthropicProviderSettings,
): (request: ModelRequest) => AsyncGenerator<ModelStreamEvent> {
  let loaded: { client: Anthropic; sdk: AnthropicSDK } | undefined;
  // The SDK is imported on the first request, not with this package: importing it costs more
  // than the rest of a provider. A missing key fails the first request, before the import.
  const connect = async (): Promise<{ client: Anthropic; sdk: AnthropicSDK }> => {
    if (loaded) return loaded;
    const apiKey = loadApiKey({
      apiKey: settings.apiKey,
      environmentVariables: ["ANTHROPIC_API_KEY"],
      provider: anthropicProviderName,
      label: "Anthropic",
    });
    const baseURL = loadSetting({ value: settings.baseURL, environmentVariable: "ANTHROPIC_BASE_URL" });
    const sdk = await loadAnthropicSDK();
    let client: Anthropic;
    try {
      client = new sdk.default({
        apiKey,
        ...(baseURL !== undefined ? { baseURL } : {}),
        ...(settings.headers !== undefined ? { defaultHeaders: settings.headers } : {}),
        ...(settings.maxRetries !== undefined ? { maxRetries: settings.maxRetries } : {}),
        ...(settings.timeout !== undefined ? { timeout: settings.timeout } : {}),
        ...(settings.fetch !== undefined ? { fetch: settings.fetch } : {}),
        ...(settings.dangerouslyAllowBrowser ? { dangerouslyAllowBrowser: true } : {}),
        // The SDK traces its calls with the global tracer provider and sends `traceparent` and
        // `baggage` to the API unless told not to. Junction's own `chat` span already covers each
        // call (with @junction/otel), so the SDK's would count every inference twice; and with
        // Junction's tracing off, an app's OpenTelemetry setup should not leak trace context to the
        // vendor. Set as an option, so the SDK's ANTHROPIC_OPEN_TELEMETRY* variables do not apply.
        openTelemetry: { traces: false, propagation: false },
      });
    } catch (error) {
      throw (
        browserRefusalError(error, {
          provider: anthropicProviderName,
          factory: "anthropic",
          sdk: "@anthropic-ai/sdk",
        }) ?? error
      );
    }
    loaded ??= { client, sdk };
    return loaded;
  };

  return async function* streamAnthropic(request) {
    const signal = request.signal;
    if (signal?.aborted) throw toAbortError(signal, undefined, "Anthropic");
    const { client, sdk } = await connect();

    const { body, warnings, toolNames } = buildAnthropicRequest(request, settings);
    for (const warning of warnings) yield { type: "warning", warning };

    const state = new AnthropicStreamState({
      toolNames,
      providerName: anthropicProviderName,
      programSources: programSourcesOf(request.messages, anthropicProviderName),
    });
    try {
      const stream = await client.messages.create(body, signal ? { signal } : undefined);
      for await (const event of stream) {
        if (signal?.aborted) break;
        yield* state.push(event);
      }
    } catch (error) {
      throw mapAnthropicError(error, { signal, sdk, baseURL: client.baseURL });
    }
    // The SDK ends a stream quietly when its request is aborted: the signal says why it ended.
    if (signal?.aborted) throw toAbortError(signal, undefined, "Anthropic");
    yield* state.finish();
  };
}
