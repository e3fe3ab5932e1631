// Compile-time only (run by `pnpm type-check`): what this package's public entry makes is what
// core's run loop takes, by the interfaces of `@junction/types` it implements, without a
// cast. This file fails to compile the day the factories stop meeting them.
import type { ModelProvider } from "@junction/types";
import { anthropic } from "./index.js";

/** The provider of Anthropic's Messages API, as an Agent's `provider`. */
export const provider: ModelProvider = anthropic();
