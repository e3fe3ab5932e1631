// The cases of the engine contract that pin the durability port's semantics (`step`,
// `waitForSignal`, `runId`) in the test's own process: the small durable functions of
// `port-scenarios.ts`, written once against the port, run as a workflow of the engine's.
import type { EngineAdapter, LaunchedEngine } from "@junction/durable-engines/engine-contract/engine-adapter";
import { portScenarios } from "@junction/durable-engines/port-scenarios";
import { describe, expect, it } from "vitest";

/** The workflow the port's scenarios run as, on every engine. */
const workflow = "port-scenario";

/** Registers the port's scenarios as a workflow of `engine` now; defines their cases. */
export function definePortContract(engine: EngineAdapter, launched: () => LaunchedEngine): void {
  const bodies: string[] = [];
  const scenarios = portScenarios(bodies);
  engine.portWorkflow(workflow, (durability, name) => {
    const scenario = scenarios[name];
    if (!scenario) throw new Error(`No port scenario "${name}": port-scenarios.ts has none by that name.`);
    return scenario(durability);
  });
  const port = () => launched().port(workflow);

  describe(`the durability port on ${engine.name}`, () => {
    it("answers undefined when the signal does not come in time", async () => {
      await port().start("port-timeout", "timeout");
      expect(await port().result("port-timeout")).toBe("timed out: true");
    });

    it(`delivers a signal sent before the wait${engine.traits.signalsBeforeStart ? " (here: before the run started)" : ""}, and a null value as null (not as a timeout)`, async () => {
      // An engine that takes a signal for a run it has not started yet is sent it first.
      if (engine.traits.signalsBeforeStart) await port().signal("port-null", "nothing", null);
      await port().start("port-null", "null value");
      if (!engine.traits.signalsBeforeStart) await port().signal("port-null", "nothing", null);
      expect(await port().result("port-null")).toBe("value: null");
    });

    it("runs a failing step's body once (no retries by the engine) and hands its error, message and code, to the run", async () => {
      bodies.length = 0;
      await port().start("port-failing", "failing step");
      expect(await port().result("port-failing")).toBe(`caught: the tool broke (${engine.failedStepSeenAs})`);
      expect(bodies).toEqual(["fails"]);
    });

    it("names each step by its key and uses the workflow's run id as the run id; starting the same id again is the same run", async () => {
      bodies.length = 0;
      await port().start("port-keys", "keys");
      expect(await port().result("port-keys")).toBe("hello port-keys");
      await port().start("port-keys", "keys");
      expect(await port().result("port-keys")).toBe("hello port-keys");
      expect(bodies).toEqual(["model:1"]);
      expect(await port().journaledSteps("port-keys")).toEqual(["model:1"]);
    });

    it("runs concurrent steps and concurrent waits, as the run loop's parallel tool calls and approvals do", async () => {
      bodies.length = 0;
      await port().start("port-parallel", "parallel");
      await port().signal("port-parallel", "approval:b", "yes b");
      await port().signal("port-parallel", "approval:a", "yes a");
      expect(await port().result("port-parallel")).toBe("tool:1:a,tool:1:b,tool:1:c yes a,yes b");
      expect(bodies).toEqual(["tool:1:b", "tool:1:c", "tool:1:a"]);
      // The journal has the steps in the order they were asked for, which a replay repeats.
      expect((await port().journaledSteps("port-parallel")).slice(0, 3)).toEqual([
        "tool:1:a",
        "tool:1:b",
        "tool:1:c",
      ]);
    });
  });
}
