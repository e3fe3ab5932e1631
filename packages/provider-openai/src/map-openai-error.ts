import { toAbortError, unreachableEndpointError } from "@junction/provider-utils";
import { errorMessage, isRetryableStatus, JunctionError, ProviderError } from "@junction/types";
import type { OpenAIErrorClasses } from "./load-openai-sdk.js";
import { openAIProviderName } from "./openai-settings.js";

/** Error codes OpenAI sends inside a 200 stream for failures that may pass on a later attempt. */
const retryableStreamCodes = new Set([
  "server_error",
  "rate_limit_exceeded",
  "server_is_overloaded",
  "slow_down",
]);

/**
 * An error OpenAI reported inside a 200 stream (an `error` event, `response.failed`) as a
 * `provider-stream-error`, retryable when its code says a later attempt may pass.
 *
 * @param what How the message starts, for example "OpenAI response failed".
 * @param error The error object as OpenAI sent it (untrusted: fields are checked).
 */
export function openAIStreamError(
  what: string,
  error: { code?: unknown; message?: unknown },
  { requestId, cause }: { requestId: string | undefined; cause?: unknown },
): ProviderError {
  const code = typeof error.code === "string" ? error.code : undefined;
  const message = typeof error.message === "string" ? error.message : "no error message";
  return new ProviderError({
    code: "provider-stream-error",
    provider: openAIProviderName,
    message: `${what}${code ? ` (${code})` : ""}: ${message}`,
    retryable: code !== undefined && retryableStreamCodes.has(code),
    requestId,
    ...(cause !== undefined ? { cause } : {}),
  });
}

/**
 * Maps whatever the `openai` SDK threw to a Junction error: HTTP failures (after the SDK's own
 * retries) to `provider-api-error` with status, retryability and request id; `error` events inside
 * a 200 stream (the SDK throws them as an `APIError` without a status) to `provider-stream-error`;
 * an aborted request to the abort error of `@junction/types`. `context.sdk` gives the SDK's error
 * classes (from `loadOpenAISDK()`), so this module does not import the SDK itself; it is absent
 * when the failure came before the SDK was loaded, and then no error can be one of its classes.
 */
export function mapOpenAIError(
  error: unknown,
  context: {
    signal?: AbortSignal;
    sdk?: OpenAIErrorClasses;
    requestId?: string;
    /** True once the response headers arrived: a connection error then means the stream broke off. */
    streaming?: boolean;
    /** The base URL the request went to, named when it cannot be reached. */
    baseURL?: string;
  },
): JunctionError {
  if (JunctionError.isInstance(error)) return error;
  const { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } =
    context.sdk ?? noClasses;
  const provider = openAIProviderName;
  if (error instanceof APIUserAbortError || context.signal?.aborted)
    return toAbortError(context.signal, error, "OpenAI");
  if (error instanceof APIConnectionTimeoutError)
    return new ProviderError({
      provider,
      message: "The OpenAI request timed out.",
      retryable: true,
      cause: error,
    });
  if (error instanceof APIConnectionError && context.streaming)
    return new ProviderError({
      code: "provider-stream-error",
      provider,
      message: `The OpenAI stream broke off: ${error.cause instanceof Error ? error.cause.message : error.message}`,
      retryable: true,
      requestId: context.requestId,
      cause: error,
    });
  if (error instanceof APIConnectionError)
    return unreachableEndpointError({
      provider,
      label: "the OpenAI API",
      url: context.baseURL ?? "its baseURL",
      error,
    });
  if (error instanceof APIError) {
    const requestId = error.requestID ?? context.requestId;
    if (error.status === undefined)
      return openAIStreamError(
        "OpenAI stream error",
        { code: error.code, message: error.message },
        { requestId, cause: error },
      );
    return new ProviderError({
      provider,
      message: `OpenAI API error ${error.message}`,
      status: error.status,
      retryable: isRetryableStatus(error.status),
      requestId,
      cause: error,
    });
  }
  if (error instanceof SyntaxError)
    return new ProviderError({
      code: "provider-response-invalid",
      provider,
      message: `OpenAI sent a stream that could not be parsed: ${error.message}`,
      requestId: context.requestId,
      cause: error,
    });
  // A connection cut mid-stream surfaces as a fetch error (for example "terminated").
  const message = errorMessage(error);
  return new ProviderError({
    code: "provider-stream-error",
    provider,
    message: `The OpenAI stream broke off: ${message}`,
    retryable: true,
    requestId: context.requestId,
    cause: error,
  });
}

// Before the SDK is loaded nothing can be an instance of its classes.
class NoClass {}
const noClasses = {
  APIConnectionError: NoClass,
  APIConnectionTimeoutError: NoClass,
  APIError: NoClass,
  APIUserAbortError: NoClass,
} as unknown as OpenAIErrorClasses;
