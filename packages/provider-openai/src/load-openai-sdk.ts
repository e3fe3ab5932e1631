import { createLazyImport } from "@junction/provider-utils";
import type * as OpenAIModule from "openai";

/** The `openai` module, as a dynamic `import()` gives it. */
export type OpenAISDK = typeof OpenAIModule;

/** The SDK's error classes the error mapper tells apart, taken from the lazily loaded SDK. */
export type OpenAIErrorClasses = Pick<
  OpenAISDK,
  "APIError" | "APIConnectionError" | "APIConnectionTimeoutError" | "APIUserAbortError"
>;

/**
 * Loads the `openai` SDK on first use and caches it, so importing this package (and calling
 * its factory) costs nothing until the first request. A failed load is not cached: the next
 * request tries again, and the error says to install `openai`.
 */
export const loadOpenAISDK: () => Promise<OpenAISDK> = createLazyImport(() => import("openai"), {
  packageName: "openai",
  provider: "openai",
});
