export type { OpenAIPartMetadata } from "./convert-to-openai-messages.js";
export { type OpenAIProviderSettings, openAICapabilities, openai } from "./openai-provider.js";
