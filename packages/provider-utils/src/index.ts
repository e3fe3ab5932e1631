export { createLazyImport } from "./create-lazy-import.js";
export { loadApiKey, loadSetting } from "./load-api-key.js";
export { isRecord, parseToolArguments } from "./parse-tool-arguments.js";
export { passThroughOptions, providerOptionsFor } from "./provider-options.js";
export { toAbortError } from "./to-abort-error.js";
