import type * as GeminiModule from "@google/genai";

/** The `@google/genai` module, as a dynamic `import()` gives it. */
export type GeminiSDK = typeof GeminiModule;

/** The SDK's error class the error mapper recognises, taken from the lazily loaded SDK. */
export type GeminiErrorClasses = Pick<GeminiSDK, "ApiError">;

let loading: Promise<GeminiSDK> | undefined;

/**
 * Loads `@google/genai` on first use and caches it, so importing this package (and calling
 * `gemini()`) costs nothing until the first request. A failed load is not cached: the next
 * request tries again.
 */
export function loadGeminiSDK(): Promise<GeminiSDK> {
  loading ??= import("@google/genai").catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
