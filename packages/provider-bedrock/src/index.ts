export { type BedrockEmbedderSettings, embedder } from "./bedrock-embedder.js";
export type { BedrockReasoningMetadata } from "./bedrock-metadata.js";
export { bedrock } from "./bedrock-provider.js";
export type { BedrockSettings } from "./bedrock-settings.js";
