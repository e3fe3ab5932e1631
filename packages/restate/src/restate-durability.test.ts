import { portScenarios } from "@junction/durable-engines/port-scenarios";
import { describe, expect, it } from "vitest";
import { launchedRestate } from "../test/launched-restate.js";
import { restateEngine } from "../test/restate-engine.js";
import { sendSignal } from "./send-signal.js";

// What only Restate's signals do, against a real Restate server: a repeated send with one
// idempotency key is one send, and the run's own promise names are reserved. The port's semantics
// both engines share are the engine contract's (test/restate-in-process.contract.test.ts), its
// crash and restart scenarios too (test/restate-workers.contract.test.ts).

const scenarios = portScenarios([]);
restateEngine.portWorkflow("port-scenario", (durability, name) => scenarios[name]!(durability));

const engine = launchedRestate();
const run = async (runId: string, name: string) => {
  await engine().port("port-scenario").start(runId, name);
  return engine().port("port-scenario").result(runId);
};

describe("restate signals, what only Restate does", () => {
  it("makes a repeated send with the same idempotency key one send", async () => {
    const signal = {
      ingress: engine().ingress,
      workflow: "port-scenario",
      runId: "port-twice",
      name: "nothing",
      value: 7,
      until: "resolved" as const,
    };
    await sendSignal({ ...signal, idempotencyKey: "twice-1" });
    await sendSignal({ ...signal, idempotencyKey: "twice-1" });
    await expect(sendSignal(signal)).rejects.toThrow("promise was already completed");
    expect(await run("port-twice", "null value")).toBe("value: 7");
  });

  it("takes no signal named as the run's own promises: a signal named junction.… is refused", async () => {
    await expect(
      sendSignal({
        ingress: engine().ingress,
        workflow: "port-scenario",
        runId: "reserved",
        name: "junction.asked:1",
        value: true,
        until: "resolved",
      }),
    ).rejects.toThrow(/must be a string that does not begin with/);
  });
});
