import { browserRefusalError, loadSetting, toAbortError } from "@junction/provider-utils";
import { type ModelRequest, type ModelStreamEvent, ProviderError } from "@junction/types";
import type OpenAI from "openai";
import { serializeChatCompletionsRequest } from "./build-chatcompletions-request.js";
import { type ChatCompletionsSettings, chatCompletionsProviderName } from "./chatcompletions-settings.js";
import { ChatCompletionsStreamState } from "./chatcompletions-stream-state.js";
import { loadOpenAISDK, type OpenAISDK } from "./load-openai-sdk.js";
import { mapChatCompletionsError } from "./map-chatcompletions-error.js";
import { createChatCompletionsMessagesCache } from "./serialize-chatcompletions-messages.js";

/**
 * The provider's only I/O: reads the key and base URL and loads the SDK on the first request,
 * then streams each turn from `chat.completions.create({ stream: true })` as neutral events.
 * Failures are thrown as `ProviderError` (HTTP errors after the SDK's retries, errors sent
 * inside the stream, malformed chunks); an aborted `request.signal` stops the HTTP stream and
 * throws the `aborted` error.
 */
export function createChatCompletionsModel(
  settings: ChatCompletionsSettings,
): (request: ModelRequest) => AsyncGenerator<ModelStreamEvent> {
  const name = chatCompletionsProviderName(settings);
  const generateId = () => `call_${crypto.randomUUID().replace(/-/g, "").slice(0, 24)}`;
  const connect = createChatCompletionsClientLoader(settings);
  const sentMessages = createChatCompletionsMessagesCache();

  return async function* streamChatCompletions(request) {
    const signal = request.signal;
    if (signal?.aborted) throw toAbortError(signal, undefined, name);
    const { client, sdk } = await connect();
    const { text, toolNames, warnings } = serializeChatCompletionsRequest(request, settings, sentMessages);
    for (const warning of warnings) yield { type: "warning", warning };

    const state = new ChatCompletionsStreamState({ toolNames, providerName: name, generateId });
    let stream: AsyncIterable<unknown> & { controller: AbortController };
    try {
      // The body goes as text (exactly what JSON.stringify gives for it), the conversation's frozen
      // messages reused from the last request: `chat.completions.create` would stringify the
      // whole conversation again, through a replacer called on every value. `post` sends a
      // string body as it is.
      stream = await client.post<typeof stream>("/chat/completions", {
        body: text,
        headers: { "content-type": "application/json" },
        stream: true,
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      throw mapChatCompletionsError(error, { signal, sdk, provider: name, baseURL: client.baseURL });
    }
    const chunks = stream[Symbol.asyncIterator]();
    try {
      while (true) {
        let next: IteratorResult<unknown>;
        try {
          next = await chunks.next();
        } catch (error) {
          throw mapChatCompletionsError(error, { signal, sdk, provider: name });
        }
        if (next.done) break;
        yield* state.push(next.value);
      }
      // The SDK ends the iteration quietly when the signal aborts mid-stream.
      if (signal?.aborted) throw toAbortError(signal, undefined, name);
      yield* state.finish();
    } finally {
      // Stops the HTTP stream when the consumer stops early or a chunk was invalid.
      await chunks.return?.();
    }
  };
}

/**
 * Makes the SDK client for a provider's settings on first use: reads the base URL and the key
 * (a missing key fails before the SDK is imported), then loads the SDK.
 */
export function createChatCompletionsClientLoader(
  settings: ChatCompletionsSettings,
): () => Promise<{ client: OpenAI; sdk: OpenAISDK }> {
  const name = chatCompletionsProviderName(settings);
  let loaded: { client: OpenAI; sdk: OpenAISDK } | undefined;
  // The SDK is imported on the first request, not with this package: importing it costs more
  // than the rest of a provider. A missing key fails the first request, before the import.
  return async (): Promise<{ client: OpenAI; sdk: OpenAISDK }> => {
    if (loaded) return loaded;
    const baseURL = loadSetting({ value: settings.baseURL, environmentVariable: "OPENAI_BASE_URL" });
    // api.openai.com needs a key; a server at a baseURL may need none.
    const apiKey =
      baseURL === undefined
        ? keyForOpenAI(settings, name)
        : // An explicit apiKey, even "", is the caller's word: "" means "send no key", and
          // OPENAI_API_KEY must not follow a baseURL the caller chose to leave keyless.
          settings.apiKey !== undefined
          ? settings.apiKey.trim() || undefined
          : loadSetting({ environmentVariable: "OPENAI_API_KEY" });
    const sdk = await loadOpenAISDK();
    let client: OpenAI;
    try {
      client = new sdk.default({
        // The SDK insists on a key; servers that need none get no Authorization header at all.
        apiKey: apiKey ?? "unused",
        baseURL,
        // Never send an OpenAI organisation or project from the environment to another vendor.
        organization: null,
        project: null,
        defaultHeaders: { ...(apiKey ? {} : { Authorization: null }), ...settings.headers },
        ...(settings.maxRetries !== undefined ? { maxRetries: settings.maxRetries } : {}),
        ...(settings.timeout !== undefined ? { timeout: settings.timeout } : {}),
        ...(settings.fetch ? { fetch: settings.fetch } : {}),
        ...(settings.dangerouslyAllowBrowser ? { dangerouslyAllowBrowser: true } : {}),
      });
    } catch (error) {
      throw (
        browserRefusalError(error, { provider: name, factory: "chatCompletions", sdk: "openai" }) ?? error
      );
    }
    loaded ??= { client, sdk };
    return loaded;
  };
}

/**
 * The key for api.openai.com, where the requests go when no baseURL is set. Without one the
 * likelier mistake is a forgotten baseURL (this provider is mostly pointed at other servers), so
 * the error names that first.
 */
function keyForOpenAI(settings: ChatCompletionsSettings, name: string): string {
  const apiKey = loadSetting({ value: settings.apiKey, environmentVariable: "OPENAI_API_KEY" });
  if (apiKey !== undefined) return apiKey;
  throw new ProviderError({
    code: "provider-config-invalid",
    provider: name,
    message:
      "chatCompletions() has no baseURL: pass the endpoint's baseURL (for example http://localhost:11434/v1 for Ollama, or spread one of CHAT_COMPLETIONS_PRESETS) or set OPENAI_BASE_URL. To use api.openai.com itself, pass apiKey or set OPENAI_API_KEY.",
  });
}
