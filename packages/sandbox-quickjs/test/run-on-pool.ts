import type { SandboxProgram } from "@junction/types";
import type { EnginePool } from "../src/engine-pool.js";
import { runProgram } from "../src/run-program.js";
import { resolveSandboxLimits } from "../src/sandbox-limits.js";
import { program } from "./program.js";

/**
 * Runs `source` on an engine from `pool` and waits until the engine is back in the pool: its
 * outcome, the engine, and how many bytes its snapshot held when the run started (undefined: none).
 * A generous CPU budget unless the overrides give one: the machine may be busy.
 */
export async function runOnPool(pool: EnginePool, source: string, overrides: Partial<SandboxProgram> = {}) {
  const limits = resolveSandboxLimits({ cpuMs: 60_000 }, overrides.limits);
  const engine = await pool.acquire(limits.memoryBytes);
  const snapshotBytes = engine.pristine?.snapshotBytes;
  let freed!: () => void;
  const engineFree = new Promise<void>((resolve) => {
    freed = resolve;
  });
  const outcome = await runProgram({
    engine,
    program: program(source, overrides),
    code: source,
    limits,
    onEngineFree: () => {
      pool.release(engine);
      freed();
    },
  });
  await engineFree;
  return { outcome, engine, snapshotBytes };
}
