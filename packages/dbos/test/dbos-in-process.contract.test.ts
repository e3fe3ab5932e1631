// DBOS meets the engine contract every durable engine's package meets (tooling/durable-engines),
// its first half: the workflows run in this process, against a real DBOS on a throwaway
// PostgreSQL cluster. The second half is dbos-workers.contract.test.ts; what only DBOS does is
// tested beside the code, in src/.
import { defineEngineContract } from "@junction/durable-engines/engine-contract";
import { dbosEngine } from "./dbos-engine.js";

defineEngineContract(dbosEngine, ["in one process"]);
