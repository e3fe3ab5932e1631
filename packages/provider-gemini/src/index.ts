export { type CleanedGeminiSchema, cleanGeminiJSONSchema } from "./clean-gemini-json-schema.js";
export {
  type ConvertedGeminiMessages,
  type ConvertToGeminiMessagesOptions,
  convertToGeminiMessages,
  GEMINI_FUNCTION_RESPONSE_MIME_TYPES,
  GEMINI_SKIP_THOUGHT_SIGNATURE,
  type GeminiPartMetadata,
} from "./convert-to-gemini-messages.js";
export { isGemini3OrLater } from "./gemini-model.js";
export { type GeminiSettings, gemini } from "./gemini-provider.js";
export { mapGeminiBlockReason, mapGeminiFinishReason } from "./map-gemini-finish-reason.js";
export {
  createGeminiToolNameMapping,
  GEMINI_TOOL_NAME_RULE,
  type PreparedGeminiTools,
  prepareGeminiTools,
} from "./prepare-gemini-tools.js";
