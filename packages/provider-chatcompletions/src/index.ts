export {
  CHAT_COMPLETIONS_PRESETS,
  type ChatCompletionsSettings,
  chatCompletions,
} from "./chatcompletions-provider.js";
export type { ChatCompletionsReasoningMetadata } from "./convert-to-chatcompletions-messages.js";
