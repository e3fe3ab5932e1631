import type * as AnthropicModule from "@anthropic-ai/sdk";
import { createLazyImport } from "@junction/provider-utils";

/** The `@anthropic-ai/sdk` module, as a dynamic `import()` gives it. */
export type AnthropicSDK = typeof AnthropicModule;

/** The SDK's error classes the error mapper tells apart, taken from the lazily loaded SDK. */
export type AnthropicErrorClasses = Pick<
  AnthropicSDK,
  "APIError" | "APIConnectionError" | "APIConnectionTimeoutError" | "APIUserAbortError"
>;

/**
 * Loads `@anthropic-ai/sdk` on first use and caches it, so importing this package (and
 * calling `anthropic()`) costs nothing until the first request. A failed load is not
 * cached: the next request tries again.
 */
export const loadAnthropicSDK = createLazyImport(() => import("@anthropic-ai/sdk"), {
  packageName: "@anthropic-ai/sdk",
  provider: "anthropic",
});
