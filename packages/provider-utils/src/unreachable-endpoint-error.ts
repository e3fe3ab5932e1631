import { errorMessage, ProviderError } from "@junction/types";

/**
 * The error for a request that never got an answer because the endpoint could not be reached
 * (connection refused, DNS failure, TLS failure): a retryable `ProviderError`
 * `provider-api-error` that names the URL it tried and what failed underneath, so a wrong
 * `baseURL` or a server that is not running is plain from the message alone.
 *
 * @example
 * ```ts
 * if (error instanceof sdk.APIConnectionError) {
 *   return unreachableEndpointError({ provider: "anthropic", label: "Anthropic", url: client.baseURL, error });
 * }
 * ```
 */
export function unreachableEndpointError(options: {
  /** The provider's name, as in `ProviderError.provider`. */
  provider: string;
  /** The provider's name as people write it, for the message (`"Anthropic"`, `"the ollama endpoint"`). */
  label: string;
  /** The base URL the request went to. */
  url: string;
  /** What the SDK threw; kept as `cause`. */
  error: unknown;
}): ProviderError {
  return new ProviderError({
    provider: options.provider,
    message: `Could not reach ${options.label} at ${options.url} (${rootCauseMessage(options.error)}). Check that baseURL is right and that the server is running and reachable.`,
    retryable: true,
    cause: options.error,
  });
}

/**
 * The message of the innermost `cause`: what actually failed under wrappers such as
 * "Connection error." → "fetch failed" → "connect ECONNREFUSED 127.0.0.1:8080". Follows at most
 * ten causes, so a cycle of causes cannot loop.
 */
function rootCauseMessage(error: unknown): string {
  let current = error;
  for (let depth = 0; depth < 10 && current instanceof Error && current.cause !== undefined; depth++) {
    current = current.cause;
  }
  return errorMessage(current);
}
