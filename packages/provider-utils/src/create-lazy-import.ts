import { errorMessage, ProviderError } from "@junction/types";

/**
 * Makes a memoised loader for a vendor SDK, so importing a provider package (and calling its
 * factory) costs nothing until the first request. The caller keeps its own literal
 * `import("…")` in its own file, which bundlers need to see.
 *
 * The first call starts the import and later calls share it. A failed import is not kept: it
 * rejects with a `ProviderError` (code `provider-config-invalid`) saying which package to
 * install, and the next call tries again.
 *
 * @example
 * ```ts
 * export const loadAnthropicSDK = createLazyImport(() => import("@anthropic-ai/sdk"), {
 *   packageName: "@anthropic-ai/sdk",
 *   provider: "anthropic",
 * });
 * const sdk = await loadAnthropicSDK();
 * ```
 */
export function createLazyImport<T>(
  load: () => Promise<T>,
  options: {
    /** The npm package the import loads, named in the error. */
    packageName: string;
    /** The provider's name, as in `ProviderError.provider`. */
    provider: string;
  },
): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw new ProviderError({
        code: "provider-config-invalid",
        provider: options.provider,
        message: `The ${options.provider} provider could not load ${options.packageName}: install it (npm install ${options.packageName}). ${errorMessage(error)}`,
        cause: error,
      });
    });
    return loading;
  };
}
