import { toAbortError, unreachableEndpointError } from "@junction/provider-utils";
import { errorMessage, isRetryableStatus, JunctionError, ProviderError } from "@junction/types";
import { anthropicProviderName as provider } from "./anthropic-settings.js";
import type { AnthropicErrorClasses } from "./load-anthropic-sdk.js";

/** Error types Anthropic sends (over HTTP or inside a stream) that may succeed when tried again. */
const retryableErrorTypes = new Set(["overloaded_error", "api_error", "rate_limit_error", "timeout_error"]);

/**
 * Maps what the Anthropic SDK throws to Junction's errors:
 *
 * - an HTTP error (the SDK's retries are already spent) → `ProviderError` `provider-api-error`
 *   with status, retryability and the `request-id`;
 * - an `event: error` inside a 200 stream, which the SDK throws as an `APIError` without a
 *   status → `ProviderError` `provider-stream-error`, retryable by its error type
 *   (`overloaded_error`, `api_error`, …);
 * - a timeout or a failed connection → retryable `provider-api-error`;
 * - a connection lost mid-stream → retryable `provider-stream-error`;
 * - an abort → `JunctionError` `aborted`.
 *
 * `context.sdk` gives the SDK's error classes (from `loadAnthropicSDK()`), so this module
 * does not import the SDK itself; without it (the SDK failed to load) only Junction errors and
 * aborts are told apart. `context.baseURL`, where the request went, is named when it cannot be
 * reached.
 */
export function mapAnthropicError(
  error: unknown,
  context: { signal?: AbortSignal; sdk?: AnthropicErrorClasses; baseURL?: string },
): JunctionError {
  const { signal, sdk } = context;
  if (JunctionError.isInstance(error)) return error;
  if (signal?.aborted || (sdk && error instanceof sdk.APIUserAbortError)) {
    return toAbortError(signal, error, "Anthropic");
  }
  if (!sdk) return streamFailure(error);
  const { APIConnectionError, APIConnectionTimeoutError, APIError } = sdk;
  if (error instanceof APIConnectionTimeoutError) {
    return new ProviderError({
      provider,
      message: "The request to Anthropic timed out.",
      retryable: true,
      cause: error,
    });
  }
  if (error instanceof APIConnectionError) {
    return unreachableEndpointError({
      provider,
      label: "Anthropic",
      url: context.baseURL ?? "its baseURL",
      error,
    });
  }
  if (error instanceof APIError) {
    const requestId = error.requestID ?? undefined;
    const detail = [error.type, error.apiMessage ?? undefined].filter(Boolean).join(": ");
    if (error.status === undefined) {
      return new ProviderError({
        code: "provider-stream-error",
        provider,
        message: `Anthropic sent an error inside the stream${detail ? ` (${detail})` : ""}.`,
        retryable: error.type !== null && retryableErrorTypes.has(error.type),
        requestId,
        cause: error,
      });
    }
    return new ProviderError({
      provider,
      message: `Anthropic API error ${error.status}${detail ? ` (${detail})` : ""}.`,
      status: error.status,
      retryable: isRetryableStatus(error.status),
      requestId,
      cause: error,
    });
  }
  if (error instanceof SyntaxError) {
    return new ProviderError({
      code: "provider-response-invalid",
      provider,
      message: `Anthropic sent a stream event that is not valid JSON: ${error.message}`,
      cause: error,
    });
  }
  return streamFailure(error);
}

function streamFailure(error: unknown): ProviderError {
  return new ProviderError({
    code: "provider-stream-error",
    provider,
    message: `The Anthropic stream failed: ${errorMessage(error)}`,
    // fetch reports a connection lost while reading the body as a TypeError ("terminated").
    retryable: error instanceof TypeError,
    cause: error,
  });
}
