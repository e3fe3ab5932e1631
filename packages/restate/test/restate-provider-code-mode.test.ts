// Provider-native code mode on Restate (tooling/durable-engines' case, served from this process to
// the Restate server from npm): the code's gated MCP call waits as data, is approved, and runs once.
import { defineProviderCodeMode } from "@junction/durable-engines/engine-contract/provider-code-mode";
import { restateEngine } from "./restate-engine.js";

defineProviderCodeMode(restateEngine);
