export type { GeminiPartMetadata } from "./convert-to-gemini-messages.js";
export { embedder, type GeminiEmbedderSettings } from "./gemini-embedder.js";
export { gemini } from "./gemini-provider.js";
export type { GeminiSettings } from "./gemini-settings.js";
