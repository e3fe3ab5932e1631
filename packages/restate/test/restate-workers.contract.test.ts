// Restate meets the engine contract every durable engine's package meets
// (tooling/durable-engines), its second half: worker processes, killed with SIGKILL, against the
// Restate server from npm. The first half is restate-in-process.contract.test.ts; what only
// Restate does is tested beside the code, in src/.
import { defineEngineContract } from "@junction/durable-engines/engine-contract";
import { restateEngine } from "./restate-engine.js";

defineEngineContract(restateEngine, ["in worker processes"]);
