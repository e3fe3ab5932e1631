// Provider-native code mode on DBOS (tooling/durable-engines' case, in this process on a throwaway
// PostgreSQL cluster): the code's gated MCP call waits as data, is approved, and runs once.
import { defineProviderCodeMode } from "@junction/durable-engines/engine-contract/provider-code-mode";
import { dbosEngine } from "./dbos-engine.js";

defineProviderCodeMode(dbosEngine);
