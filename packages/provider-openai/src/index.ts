export type {
  OpenAIMCPApprovalRequest,
  OpenAIMCPApprovalResponse,
  OpenAIPartMetadata,
} from "./convert-to-openai-messages.js";
export { embedder, type OpenAIEmbedderSettings } from "./openai-embedder.js";
export type {
  OpenAIProgramCaller,
  OpenAIProgramItem,
  OpenAIProgramOutputItem,
} from "./openai-programmatic-tools.js";
export { openai } from "./openai-provider.js";
export type { OpenAIProviderSettings } from "./openai-settings.js";
