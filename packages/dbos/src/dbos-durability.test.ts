import { DBOS } from "@dbos-inc/dbos-sdk";
import { portScenarios } from "@junction/durable-engines/port-scenarios";
import { type Postgres, startPostgres } from "@junction/durable-engines/postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dbosDurability } from "./dbos-durability.js";
import { dbosWorkflow } from "./dbos-workflow.js";
import { sendSignal } from "./send-signal.js";

// The port's semantics in one process, against a real DBOS on a real PostgreSQL. The crash and
// restart scenarios are the engine contract's (test/dbos.contract.test.ts).

let postgres: Postgres;

const bodies: string[] = [];
const scenarios = portScenarios(bodies);

const scenario = dbosWorkflow("port-scenario", (durability, name: string) => scenarios[name]!(durability));

beforeAll(async () => {
  postgres = await startPostgres();
  DBOS.setConfig({
    name: "junction-dbos-port",
    systemDatabaseUrl: postgres.url("junction_dbos_port"),
    logLevel: "error",
  });
  await DBOS.launch();
});
afterAll(async () => {
  await DBOS.shutdown();
  postgres?.stop();
});

describe("dbosDurability", () => {
  it("answers undefined when the signal does not come in time", async () => {
    const handle = await scenario.start("timeout", { runId: "port-timeout" });
    expect(await handle.getResult()).toBe("timed out: true");
  });

  it("delivers a signal sent before the wait, and a null value as null (not as a timeout)", async () => {
    const handle = await scenario.start("null value", { runId: "port-null" });
    await sendSignal({ sender: DBOS, runId: "port-null", name: "nothing", value: null });
    expect(await handle.getResult()).toBe("value: null");
  });

  it("refuses a signal for a run that was never started (DBOS's own check)", async () => {
    await expect(
      sendSignal({ sender: DBOS, runId: "port-unknown", name: "approval:1", value: true }),
    ).rejects.toThrow("Sent to non-existent destination workflow UUID: port-unknown");
  });

  it("runs a failing step's body once (no DBOS retries) and hands its error to the run", async () => {
    bodies.length = 0;
    const handle = await scenario.start("failing step", { runId: "port-failing" });
    expect(await handle.getResult()).toBe(
      "caught: the tool broke (code tool-execution-failed, metadata.code undefined)",
    );
    expect(bodies).toEqual(["fails"]);
  });

  it("names each DBOS step by its key and uses the workflow id as the run id; starting the same id again is the same run", async () => {
    bodies.length = 0;
    const handle = await scenario.start("keys", { runId: "port-keys" });
    expect(await handle.getResult()).toBe("hello port-keys");
    const again = await scenario.start("keys", { runId: "port-keys" });
    expect(await again.getResult()).toBe("hello port-keys");
    expect(bodies).toEqual(["model:1"]);
    expect((await DBOS.listWorkflowSteps("port-keys"))?.map((step) => step.name)).toEqual(["model:1"]);
  });

  it("runs concurrent steps and concurrent waits, as the run loop's parallel tool calls and approvals do", async () => {
    bodies.length = 0;
    const handle = await scenario.start("parallel", { runId: "port-parallel" });
    await sendSignal({ sender: DBOS, runId: "port-parallel", name: "approval:b", value: "yes b" });
    await sendSignal({ sender: DBOS, runId: "port-parallel", name: "approval:a", value: "yes a" });
    expect(await handle.getResult()).toBe("tool:1:a,tool:1:b,tool:1:c yes a,yes b");
    expect(bodies).toEqual(["tool:1:b", "tool:1:c", "tool:1:a"]);
    // DBOS numbers the steps in the order they were asked for, which a replay repeats.
    expect((await DBOS.listWorkflowSteps("port-parallel"))?.map((step) => step.name).slice(0, 3)).toEqual([
      "tool:1:a",
      "tool:1:b",
      "tool:1:c",
    ]);
  });

  it("refuses to make a port outside a workflow, saying where to call it", () => {
    expect(() => dbosDurability()).toThrow(
      expect.objectContaining({
        code: "invalid-argument",
        message: expect.stringContaining("outside a DBOS workflow"),
      }),
    );
  });
});
