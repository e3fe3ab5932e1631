// Compile-time only (run by `pnpm type-check`): what this package's public entry makes is what
// core's run loop and tool search take, by the interfaces of `@junction/types` it implements, without a
// cast. This file fails to compile the day the factories stop meeting them.
import type { Embedder, ModelProvider } from "@junction/types";
import { type ChatCompletionsEmbedderSettings, chatCompletions, embedder } from "./index.js";

/** The provider of a Chat Completions server, as an Agent's `provider`. */
export const provider: ModelProvider = chatCompletions();

declare const settings: ChatCompletionsEmbedderSettings;

/** Its embeddings, as a tool search's `embed`. */
export const embed: Embedder = embedder(settings);
