import { toAbortError, unreachableEndpointError } from "@junction/provider-utils";
import { errorMessage, isRetryableStatus, JunctionError, ProviderError } from "@junction/types";
import type { OpenAIErrorClasses } from "./load-openai-sdk.js";

/**
 * Turns whatever the `openai` SDK threw into a Junction error: `ProviderError` with status,
 * retryability and request id for API failures (including an `error` object sent inside a
 * 200 stream, which the SDK raises as an `APIError` without a status), and the shared
 * `aborted` error when the caller's signal aborted the request. `context.sdk` gives the SDK's
 * error classes (from `loadOpenAISDK()`), so this module does not import the SDK itself;
 * `context.provider` is the provider's name (`settings.name`); `context.baseURL`, the endpoint the
 * request went to, is named when it cannot be reached.
 */
export function mapChatCompletionsError(
  error: unknown,
  context: { signal?: AbortSignal; sdk?: OpenAIErrorClasses; provider: string; baseURL?: string },
): JunctionError {
  const { signal, sdk, provider: providerName } = context;
  if (JunctionError.isInstance(error)) return error;
  if (signal?.aborted || (sdk && error instanceof sdk.APIUserAbortError)) {
    return toAbortError(signal, error, providerName);
  }
  if (!sdk) return streamFailure(error, providerName);
  const { APIConnectionError, APIConnectionTimeoutError, APIError } = sdk;
  if (error instanceof APIConnectionTimeoutError) {
    return new ProviderError({
      provider: providerName,
      message: `The ${providerName} request timed out.`,
      retryable: true,
      cause: error,
    });
  }
  if (error instanceof APIConnectionError) {
    return unreachableEndpointError({
      provider: providerName,
      label: `the ${providerName} endpoint`,
      url: context.baseURL ?? "its baseURL",
      error,
    });
  }
  if (error instanceof APIError) {
    const requestId = error.requestID ?? undefined;
    if (error.status === undefined) {
      // An error object inside a 200 stream (OpenRouter, vLLM, OpenAI's own server_error).
      const body = (error.error ?? {}) as { code?: unknown; type?: unknown };
      const code = typeof body.code === "number" ? body.code : Number.parseInt(String(body.code), 10);
      const retryable = Number.isFinite(code)
        ? isRetryableStatus(code)
        : body.type === "server_error" || body.code === "server_error" || body.code === "rate_limit_exceeded";
      return new ProviderError({
        code: "provider-stream-error",
        provider: providerName,
        message: `The ${providerName} stream reported an error: ${error.message}`,
        retryable,
        requestId,
        cause: error,
      });
    }
    return new ProviderError({
      provider: providerName,
      message: `The ${providerName} API answered ${error.message}`,
      status: error.status,
      retryable: isRetryableStatus(error.status),
      requestId,
      cause: error,
    });
  }
  return streamFailure(error, providerName);
}

function streamFailure(error: unknown, providerName: string): ProviderError {
  const message = errorMessage(error);
  const cut = /terminated|socket|ECONNRESET|aborted/i.test(message);
  return new ProviderError({
    code: "provider-stream-error",
    provider: providerName,
    message: `The ${providerName} stream failed: ${cut ? `the connection closed before the stream ended (${message})` : message}`,
    // A connection cut mid-stream (the usual cause here) is worth retrying.
    retryable: cut,
    cause: error,
  });
}
