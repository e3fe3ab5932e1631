// Restate launched for one test file's workflows (registered with `restateEngine` before), started
// before its tests and stopped after them. Never shipped (not in `src/`).
import { afterAll, beforeAll } from "vitest";
import { launchRestate, type RestateLaunched } from "./restate-engine.js";

/** Registers the hooks that launch and stop Restate; the function it returns is the running engine. */
export function launchedRestate(): () => RestateLaunched {
  let launched: RestateLaunched | undefined;
  beforeAll(async () => {
    launched = await launchRestate();
  });
  afterAll(async () => {
    await launched?.stop();
  });
  return () => {
    if (!launched) throw new Error("Restate was not launched: see the error of beforeAll.");
    return launched;
  };
}
