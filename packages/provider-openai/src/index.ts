export type {
  OpenAIMCPApprovalRequest,
  OpenAIMCPApprovalResponse,
  OpenAIPartMetadata,
} from "./convert-to-openai-messages.js";
export { type OpenAIProviderSettings, openai } from "./openai-provider.js";
