export {
  MINILM_DIMENSIONS,
  MINILM_MODEL_ID,
  type MiniLMEmbedder,
  type MiniLMOptions,
  type MiniLMStats,
  miniLM,
  type WarmResult,
  type WarmToolsOptions,
} from "./minilm-embedder.js";
export { defaultCacheDirectory } from "./vector-cache-file.js";
