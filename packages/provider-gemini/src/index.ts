export type { GeminiPartMetadata } from "./convert-to-gemini-messages.js";
export { gemini } from "./gemini-provider.js";
export type { GeminiSettings } from "./gemini-settings.js";
