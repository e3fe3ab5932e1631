import type * as GeminiModule from "@google/genai";
import { createLazyImport } from "@junction/provider-utils";

/** The `@google/genai` module, as a dynamic `import()` gives it. */
export type GeminiSDK = typeof GeminiModule;

/** The SDK's error class the error mapper recognises, taken from the lazily loaded SDK. */
export type GeminiErrorClasses = Pick<GeminiSDK, "ApiError">;

/**
 * Loads `@google/genai` on first use and caches it, so importing this package (and calling
 * `gemini()`) costs nothing until the first request. A failed load is not cached: the next
 * request tries again, and the error says to install `@google/genai`.
 */
export const loadGeminiSDK: () => Promise<GeminiSDK> = createLazyImport(() => import("@google/genai"), {
  packageName: "@google/genai",
  provider: "gemini",
});
