export { type AnthropicRequestBody, buildAnthropicRequest, DEFAULT_MAX_TOKENS } from "./anthropic-model.js";
export { type AnthropicProviderSettings, anthropic, anthropicCapabilities } from "./anthropic-provider.js";
export {
  type ConvertedAnthropicMessages,
  convertToAnthropicMessages,
} from "./convert-to-anthropic-messages.js";
export { mapAnthropicFinishReason } from "./map-anthropic-finish-reason.js";
export { type PreparedAnthropicTools, prepareAnthropicTools } from "./prepare-anthropic-tools.js";
