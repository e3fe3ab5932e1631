export type { AnthropicReasoningMetadata, AnthropicToolCallMetadata } from "./anthropic-metadata.js";
export { type AnthropicProviderSettings, anthropic } from "./anthropic-provider.js";
