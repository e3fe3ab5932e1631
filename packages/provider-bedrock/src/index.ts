export type { BedrockReasoningMetadata } from "./bedrock-metadata.js";
export { type BedrockSettings, bedrock } from "./bedrock-provider.js";
