import { defineInProcessContract } from "@junction/durable-engines/engine-contract/contract-in-process";
import { defineWorkersContract } from "@junction/durable-engines/engine-contract/contract-workers";
import type { EngineAdapter } from "@junction/durable-engines/engine-contract/engine-adapter";
import { describe } from "vitest";

/**
 * The contract's two halves: the workflows run in the test's own process (`"in one process"`),
 * and in worker processes the test kills (`"in worker processes"`). Each starts an engine of its
 * own, so a package may run them from two test files, side by side.
 */
export type EngineContractPart = "in one process" | "in worker processes";

/**
 * Defines the contract every Junction durable engine meets, as vitest tests, for one engine: its
 * package driven as an application drives it, against the real engine (a PostgreSQL cluster for
 * DBOS, the Restate server from npm). Call it from the engine's package with the package's
 * adapter: once for the whole contract, or once per part from two test files (which vitest runs
 * side by side). What only one engine does stays in that package's own tests.
 *
 * @example
 * ```ts
 * import { defineEngineContract } from "@junction/durable-engines/engine-contract";
 * import { dbosEngine } from "./dbos-engine.js";
 *
 * defineEngineContract(dbosEngine, ["in one process"]);
 * ```
 */
export function defineEngineContract(
  engine: EngineAdapter,
  parts: readonly EngineContractPart[] = ["in one process", "in worker processes"],
): void {
  describe(`${engine.name} engine contract`, () => {
    // Each part's engine is stopped before the next part's starts: a crash of the engine in one
    // does not reach the other.
    if (parts.includes("in one process")) describe("in one process", () => defineInProcessContract(engine));
    if (parts.includes("in worker processes")) {
      describe("in worker processes", () => defineWorkersContract(engine));
    }
  });
}
