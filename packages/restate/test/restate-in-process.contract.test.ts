// Restate meets the engine contract every durable engine's package meets
// (tooling/durable-engines), its first half: the workflows run in this process, against the
// Restate server from npm. The second half is restate-workers.contract.test.ts; what only Restate
// does is tested beside the code, in src/.
import { defineEngineContract } from "@junction/durable-engines/engine-contract";
import { restateEngine } from "./restate-engine.js";

defineEngineContract(restateEngine, ["in one process"]);
