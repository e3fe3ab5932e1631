import { createAbortError, type JunctionError } from "@junction/types";

/**
 * The error a provider throws when the caller's `AbortSignal` stopped a request: the one abort
 * error of `@junction/types` (code `"aborted"`), with the message
 * "The <Provider> request was aborted." Its `cause` is the signal's reason when the signal has
 * one, else `cause` (what the SDK threw, for example).
 *
 * @param provider The provider's name as people write it, for the message (`"Anthropic"`).
 *
 * @example
 * ```ts
 * if (signal?.aborted) throw toAbortError(signal, undefined, "Anthropic");
 * ```
 */
export function toAbortError(
  signal: AbortSignal | undefined,
  cause: unknown,
  provider: string,
): JunctionError {
  const reason: unknown = signal?.aborted ? signal.reason : undefined;
  return createAbortError(`The ${provider} request was aborted.`, reason ?? cause);
}
