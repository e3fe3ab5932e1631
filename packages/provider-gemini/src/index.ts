export type { GeminiPartMetadata } from "./convert-to-gemini-messages.js";
export { type GeminiSettings, gemini } from "./gemini-provider.js";
