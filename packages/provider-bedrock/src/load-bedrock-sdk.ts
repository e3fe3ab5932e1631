import type * as BedrockRuntimeModule from "@aws-sdk/client-bedrock-runtime";
import { createLazyImport } from "@junction/provider-utils";

/** The `@aws-sdk/client-bedrock-runtime` module, as a dynamic `import()` gives it. */
export type BedrockSDK = typeof BedrockRuntimeModule;

/** What the error mapper takes from the loaded SDK: its base exception class. */
export type BedrockErrorClasses = Pick<BedrockSDK, "BedrockRuntimeServiceException">;

/**
 * Loads `@aws-sdk/client-bedrock-runtime` on first use and caches it, so importing this package
 * (and calling `bedrock()`) costs nothing until the first request. A failed load is not cached:
 * the next request tries again.
 */
export const loadBedrockSDK: () => Promise<BedrockSDK> = createLazyImport(
  () => import("@aws-sdk/client-bedrock-runtime"),
  {
    packageName: "@aws-sdk/client-bedrock-runtime",
    provider: "bedrock",
  },
);
