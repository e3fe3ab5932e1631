import { isRecord, toAbortError, unreachableEndpointError } from "@junction/provider-utils";
import { errorMessage, isRetryableStatus, JunctionError, ProviderError } from "@junction/types";
import { bedrockProviderName as provider } from "./bedrock-settings.js";
import type { BedrockErrorClasses } from "./load-bedrock-sdk.js";

/**
 * The Bedrock runtime's modelled errors: the HTTP status each comes with (used when the SDK
 * gives none), and whether the same request may succeed later.
 */
const bedrockExceptions: Record<string, { status: number; retryable: boolean }> = {
  ThrottlingException: { status: 429, retryable: true },
  ServiceUnavailableException: { status: 503, retryable: true },
  InternalServerException: { status: 500, retryable: true },
  ModelNotReadyException: { status: 429, retryable: true },
  ModelTimeoutException: { status: 408, retryable: true },
  ModelStreamErrorException: { status: 424, retryable: true },
  ModelErrorException: { status: 424, retryable: false },
  ValidationException: { status: 400, retryable: false },
  AccessDeniedException: { status: 403, retryable: false },
  ResourceNotFoundException: { status: 404, retryable: false },
  ServiceQuotaExceededException: { status: 400, retryable: false },
  ConflictException: { status: 400, retryable: false },
};

/** Errors the AWS SDK throws before any request, when it has no credentials or region to use. */
const configErrorNames = new Set(["CredentialsProviderError", "TokenProviderError"]);

/**
 * Maps what the AWS SDK throws to Junction's errors, by the error's class and `name` (never its
 * message):
 *
 * - a Bedrock exception answered over HTTP (the SDK's retries already spent) → `ProviderError`
 *   `provider-api-error` with the status from `$metadata.httpStatusCode`, retryability
 *   (throttling, unavailable, internal errors, model not ready: yes; validation, access denied,
 *   not found: no) and `$metadata.requestId`;
 * - a Bedrock exception sent inside a 200 stream (`context.inStream`, or no HTTP status) →
 *   `ProviderError` `provider-stream-error`, retryable by its type, without a status;
 * - credentials the AWS provider chain could not find → `provider-config-invalid`;
 * - an event whose payload is not valid JSON → `provider-response-invalid`;
 * - a connection that failed before any answer → retryable `provider-api-error` naming
 *   `context.endpoint`; a failure once a 200 answer arrived (`context.inStream`, or an error the
 *   SDK stamped with the answer's `$metadata`, as when `send()` reads a first event frame whose
 *   checksum is wrong) → retryable `provider-stream-error`;
 * - an abort → the shared abort error (`JunctionError` `aborted`).
 *
 * `context.sdk` gives the SDK's base exception class (from `loadBedrockSDK()`), so this module
 * does not import the SDK itself.
 */
export function mapBedrockError(
  error: unknown,
  context: {
    signal?: AbortSignal;
    sdk?: BedrockErrorClasses;
    inStream?: boolean;
    requestId?: string;
    /** The runtime endpoint the request went to, named when it cannot be reached. */
    endpoint?: string;
  },
): JunctionError {
  if (JunctionError.isInstance(error)) return error;
  const name = isRecord(error) || error instanceof Error ? String((error as { name?: unknown }).name) : "";
  if (context.signal?.aborted || name === "AbortError") return toAbortError(context.signal, error, "Bedrock");
  const detail = errorMessage(error);

  if (configErrorNames.has(name)) {
    return new ProviderError({
      code: "provider-config-invalid",
      provider,
      message: `Bedrock could not get AWS credentials: ${detail} Pass credentials to bedrock(), or configure the AWS SDK's provider chain (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE, AWS_BEARER_TOKEN_BEDROCK, an instance role, …).`,
      cause: error,
    });
  }

  const isServiceError = context.sdk ? error instanceof context.sdk.BedrockRuntimeServiceException : false;
  if (isServiceError || name in bedrockExceptions) {
    const metadata = (error as { $metadata?: { httpStatusCode?: number; requestId?: string } }).$metadata;
    const known = bedrockExceptions[name];
    const requestId = metadata?.requestId ?? context.requestId;
    const text = `${name}${detail ? `: ${detail}` : ""}`;
    if (context.inStream || metadata?.httpStatusCode === undefined) {
      return new ProviderError({
        code: "provider-stream-error",
        provider,
        message: `Bedrock sent an error inside the stream (${text}).`,
        retryable: known?.retryable ?? false,
        requestId,
        cause: error,
      });
    }
    const status = metadata.httpStatusCode ?? known?.status;
    return new ProviderError({
      provider,
      message: `Bedrock API error ${status} (${text}).`,
      status,
      retryable: known?.retryable ?? isRetryableStatus(status),
      requestId,
      cause: error,
    });
  }

  // The SDK stamps what it failed to read with the answer's metadata: a 200 answer arrived, so
  // this is a broken stream, not an endpoint that could not be reached.
  const answer = isRecord(error)
    ? (error as { $metadata?: { httpStatusCode?: number; requestId?: string } }).$metadata
    : undefined;
  const requestId = context.requestId ?? answer?.requestId;
  if (error instanceof SyntaxError) {
    return new ProviderError({
      code: "provider-response-invalid",
      provider,
      message: `Bedrock sent an event that is not valid JSON: ${detail}`,
      requestId,
      cause: error,
    });
  }
  if (context.inStream || answer?.httpStatusCode !== undefined) {
    return new ProviderError({
      code: "provider-stream-error",
      provider,
      message: `The Bedrock stream failed: ${detail}`,
      retryable: true,
      requestId,
      cause: error,
    });
  }
  return unreachableEndpointError({
    provider,
    label: "Bedrock",
    url: context.endpoint ?? "its endpoint",
    error,
  });
}
