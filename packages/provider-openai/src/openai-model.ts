import { browserRefusalError, loadApiKey, loadSetting, toAbortError } from "@junction/provider-utils";
import type { ModelRequest, ModelStreamEvent } from "@junction/types";
import type OpenAI from "openai";
import { buildOpenAIRequest } from "./build-openai-request.js";
import { loadOpenAISDK, type OpenAISDK } from "./load-openai-sdk.js";
import { mapOpenAIError } from "./map-openai-error.js";
import { type OpenAIProviderSettings, openAIProviderName } from "./openai-settings.js";
import { OpenAIStreamState } from "./openai-stream-state.js";

/** Makes the SDK client for a provider's settings: reads the key, then loads the SDK. */
export function createOpenAIClientLoader(
  settings: OpenAIProviderSettings,
): () => Promise<{ client: OpenAI; sdk: OpenAISDK }> {
  let loaded: { client: OpenAI; sdk: OpenAISDK } | undefined;
  return async () => {
    if (loaded) return loaded;
    // The key is checked before the SDK is imported, so a missing key fails fast.
    const apiKey = loadApiKey({
      apiKey: settings.apiKey,
      environmentVariables: ["OPENAI_API_KEY"],
      provider: openAIProviderName,
      label: "OpenAI",
    });
    const sdk = await loadOpenAISDK();
    let client: OpenAI;
    try {
      client = new sdk.default({
        apiKey,
        baseURL:
          loadSetting({ value: settings.baseURL, environmentVariable: "OPENAI_BASE_URL" }) ??
          "https://api.openai.com/v1",
        organization: settings.organization ?? null,
        project: settings.project ?? null,
        defaultHeaders: settings.headers,
        maxRetries: settings.maxRetries,
        timeout: settings.timeout,
        fetch: settings.fetch,
        ...(settings.dangerouslyAllowBrowser ? { dangerouslyAllowBrowser: true } : {}),
      });
    } catch (error) {
      throw (
        browserRefusalError(error, { provider: openAIProviderName, factory: "openai", sdk: "openai" }) ??
        error
      );
    }
    loaded ??= { client, sdk };
    return loaded;
  };
}

/**
 * Streams one turn from the Responses API: sends the request through the `openai` SDK (which
 * retries 408/409/429/5xx itself), feeds each event to an {@link OpenAIStreamState}, and throws
 * a `ProviderError` for HTTP errors, `error` / `response.failed` events inside the stream, and a
 * stream that ends without a `response.completed` or `response.incomplete`. An aborted
 * `request.signal` stops the HTTP stream and throws the abort error of `@junction/types`.
 */
export async function* streamOpenAIResponse(
  loadClient: () => Promise<{ client: OpenAI; sdk: OpenAISDK }>,
  request: ModelRequest,
  settings: OpenAIProviderSettings,
): AsyncGenerator<ModelStreamEvent> {
  const { client, sdk } = await loadClient();
  const { body, toolNames, warnings, programs } = buildOpenAIRequest(request, settings);
  for (const warning of warnings) yield { type: "warning", warning };

  const signal = request.signal;
  let requestId: string | undefined;
  let state: OpenAIStreamState | undefined;
  try {
    // The body goes as the text JSON.stringify gives: `responses.create` encodes it through a
    // replacer called on every value (the SDK's body observers), which costs up to twice a plain
    // stringify on a long conversation. `post` sends a string body as it is.
    const { data, request_id } = await client
      .post<AsyncIterable<unknown>>("/responses", {
        body: JSON.stringify(body),
        headers: { "content-type": "application/json" },
        stream: true,
        signal,
      })
      .withResponse();
    requestId = request_id ?? undefined;
    state = new OpenAIStreamState({ toolNames, requestId, programs });
    for await (const event of data) {
      yield* state.push(event);
      if (state.finished) break;
    }
  } catch (error) {
    throw mapOpenAIError(error, {
      signal,
      sdk,
      requestId,
      streaming: state !== undefined,
      baseURL: client.baseURL,
    });
  }
  // The SDK ends the iteration quietly when the request is aborted mid-stream.
  if (signal?.aborted) throw toAbortError(signal, undefined, "OpenAI");
  yield* state.finish();
}
