import type { ApiError } from "@google/genai";
import { toAbortError, unreachableEndpointError } from "@junction/provider-utils";
import { errorMessage, isRetryableStatus, JunctionError, ProviderError } from "@junction/types";
import type { GeminiErrorClasses } from "./load-gemini-sdk.js";

/** Where the failure happened: before any response, or inside a streamed 200 response. */
export type GeminiFailurePhase = "request" | "stream";

/**
 * Turns what `@google/genai` throws into Junction's errors.
 *
 * The SDK throws an `ApiError` with `status` for an HTTP error (its message is the JSON error
 * body) and also for an `{"error": {...}}` event inside a 200 stream (message
 * `got status: UNAVAILABLE. {...}`); network failures and cut connections surface as
 * `TypeError`s from fetch, and an aborted request as an `AbortError`.
 *
 * `context.sdk` gives the SDK's `ApiError` class (from `loadGeminiSDK()`), so this module does
 * not import the SDK itself; it is absent when the failure came before the SDK was loaded, and
 * then no error can be one of its classes.
 */
export function mapGeminiError(
  error: unknown,
  context: {
    signal?: AbortSignal;
    sdk?: GeminiErrorClasses;
    /** Where it failed. @default "request" */
    phase?: GeminiFailurePhase;
    /** The provider's name, as in `ProviderError.provider`. @default "gemini" */
    providerName?: string;
    /** The per-attempt timeout, named in a timeout's message. */
    timeoutMs?: number;
    requestId?: string;
    /** The base URL the request went to, named when it cannot be reached. */
    baseURL?: string;
  },
): JunctionError {
  const { providerName = "gemini", phase = "request", signal, requestId } = context;
  if (JunctionError.isInstance(error)) return error;
  if (signal?.aborted) return toAbortError(signal, error, "Gemini");
  const code = phase === "stream" ? "provider-stream-error" : "provider-api-error";
  const sdkApiError = context.sdk?.ApiError;
  if ((sdkApiError !== undefined && error instanceof sdkApiError) || isApiErrorLike(error)) {
    const status = (error as ApiError).status;
    const detail = parseErrorBody(errorMessage(error));
    const where = phase === "stream" ? " inside the stream" : "";
    return new ProviderError({
      code,
      provider: providerName,
      status,
      retryable: isRetryableStatus(status),
      requestId,
      message: `Gemini API error${where} (HTTP ${status}${detail.status ? ` ${detail.status}` : ""}): ${detail.message}`,
      cause: error,
    });
  }
  const name = error instanceof Error ? error.name : "";
  if (name === "AbortError" || name === "TimeoutError") {
    // Our caller's signal is not aborted, so the SDK's per-attempt timeout fired.
    return new ProviderError({
      code,
      provider: providerName,
      retryable: true,
      requestId,
      message: `The Gemini request timed out${context.timeoutMs ? ` after ${context.timeoutMs} ms` : ""}.`,
      cause: error,
    });
  }
  if (error instanceof TypeError && phase === "request") {
    return unreachableEndpointError({
      provider: providerName,
      label: "the Gemini API",
      url: context.baseURL ?? "its baseURL",
      error,
    });
  }
  if (error instanceof TypeError) {
    const reason = error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message;
    return new ProviderError({
      code,
      provider: providerName,
      retryable: true,
      requestId,
      message: `The Gemini stream was cut off (${reason}).`,
      cause: error,
    });
  }
  const message = errorMessage(error);
  if (phase === "request") {
    return new ProviderError({
      provider: providerName,
      retryable: false,
      requestId,
      message: `The Gemini request failed: ${message}`,
      cause: error,
    });
  }
  return new ProviderError({
    code: "provider-response-invalid",
    provider: providerName,
    retryable: false,
    requestId,
    message: `Gemini sent a response Junction could not read: ${message}`,
    cause: error,
  });
}

function isApiErrorLike(error: unknown): boolean {
  return (
    error instanceof Error &&
    error.name === "ApiError" &&
    typeof (error as { status?: unknown }).status === "number"
  );
}

/** Pulls `error.message` and `error.status` out of the SDK's message, which embeds the JSON body. */
function parseErrorBody(message: string): { message: string; status?: string } {
  const start = message.indexOf("{");
  if (start >= 0) {
    try {
      const body = JSON.parse(message.slice(start)) as { error?: { message?: unknown; status?: unknown } };
      const inner = body?.error;
      if (inner && typeof inner.message === "string") {
        return {
          message: inner.message,
          status: typeof inner.status === "string" ? inner.status : undefined,
        };
      }
    } catch {
      // Not JSON: the message is used as it is.
    }
  }
  return { message };
}
