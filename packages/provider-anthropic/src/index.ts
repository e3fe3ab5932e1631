export type { AnthropicReasoningMetadata, AnthropicToolCallMetadata } from "./anthropic-metadata.js";
export type {
  AnthropicProgrammaticToolCalling,
  ProgrammaticCodeExecution,
} from "./anthropic-programmatic-tools.js";
export { anthropic } from "./anthropic-provider.js";
export type { AnthropicProviderSettings } from "./anthropic-settings.js";
