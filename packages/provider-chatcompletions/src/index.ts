export { type ChatCompletionsEmbedderSettings, embedder } from "./chatcompletions-embedder.js";
export { CHAT_COMPLETIONS_PRESETS, chatCompletions } from "./chatcompletions-provider.js";
export type { ChatCompletionsSettings } from "./chatcompletions-settings.js";
export type { ChatCompletionsReasoningMetadata } from "./convert-to-chatcompletions-messages.js";
