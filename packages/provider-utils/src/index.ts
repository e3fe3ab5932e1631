export { type AlternatingMessage, appendAlternating } from "./append-alternating.js";
export { browserRefusalError } from "./browser-refusal-error.js";
export { closedObjectSchema } from "./closed-object-schema.js";
export {
  type ContentPartPlace,
  describeResourceLink,
  omittedPartNote,
  type ResourceLinkDescription,
  resourceLinkText,
  textInPlaceOf,
} from "./content-part-notes.js";
export { createLazyImport } from "./create-lazy-import.js";
export { isDeeplyFrozen } from "./is-deeply-frozen.js";
export { loadApiKey, loadSetting } from "./load-api-key.js";
export {
  CLAUDE_CONTEXT_LIMITS,
  CLAUDE_DEFAULT_LIMITS,
  contextLimitsFor,
  type ModelContextLimits,
  OPENAI_CONTEXT_LIMITS,
} from "./model-context-limits.js";
export { objectInputSchema } from "./object-input-schema.js";
export { isRecord, objectToolInput, parseToolArguments, toolCallInput } from "./parse-tool-arguments.js";
export {
  type PreparedToolNames,
  prepareToolNames,
  type ToolNameMapper,
  toolChoiceWithoutTools,
} from "./prepare-tool-names.js";
export { passThroughOptions, providerOptionsFor } from "./provider-options.js";
export { structuredContentForModel } from "./structured-content-for-model.js";
export { STRUCTURED_OUTPUT_FORMATS, structuredOutputSubset } from "./structured-output-subset.js";
export { toAbortError } from "./to-abort-error.js";
export { unreachableEndpointError } from "./unreachable-endpoint-error.js";
