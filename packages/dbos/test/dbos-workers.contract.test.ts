// DBOS meets the engine contract every durable engine's package meets (tooling/durable-engines),
// its second half: worker processes, killed with SIGKILL, against a real DBOS on a throwaway
// PostgreSQL cluster. The first half is dbos-in-process.contract.test.ts; what only DBOS does is
// tested beside the code, in src/.
import { defineEngineContract } from "@junction/durable-engines/engine-contract";
import { dbosEngine } from "./dbos-engine.js";

defineEngineContract(dbosEngine, ["in worker processes"]);
