import type * as AnthropicModule from "@anthropic-ai/sdk";

/** The `@anthropic-ai/sdk` module, as a dynamic `import()` gives it. */
export type AnthropicSDK = typeof AnthropicModule;

/** The SDK's error classes the error mapper tells apart, taken from the lazily loaded SDK. */
export type AnthropicErrorClasses = Pick<
  AnthropicSDK,
  "APIError" | "APIConnectionError" | "APIConnectionTimeoutError" | "APIUserAbortError"
>;

let loading: Promise<AnthropicSDK> | undefined;

/**
 * Loads `@anthropic-ai/sdk` on first use and caches it, so importing this package (and
 * calling `anthropic()`) costs nothing until the first request. A failed load is not
 * cached: the next request tries again.
 */
export function loadAnthropicSDK(): Promise<AnthropicSDK> {
  loading ??= import("@anthropic-ai/sdk").catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
