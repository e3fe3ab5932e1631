// Compile-time only (run by `pnpm type-check`): what this package's public entry makes is what
// core's run loop and tool search take, by the interfaces of `@junction/types` it implements, without a
// cast. This file fails to compile the day the factories stop meeting them.
import type { Embedder, ModelProvider } from "@junction/types";
import { type BedrockEmbedderSettings, bedrock, embedder } from "./index.js";

/** The provider of Amazon Bedrock's Converse API, as an Agent's `provider`. */
export const provider: ModelProvider = bedrock();

declare const settings: BedrockEmbedderSettings;

/** Its embeddings, as a tool search's `embed`. */
export const embed: Embedder = embedder(settings);
