import { DBOS } from "@dbos-inc/dbos-sdk";
import type { Durability } from "@junction/core";
import { type Postgres, startPostgres } from "@junction/durable-engines/postgres";
import { JunctionError } from "@junction/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dbosDurability } from "./dbos-durability.js";
import { dbosWorkflow } from "./dbos-workflow.js";
import { sendSignal } from "./send-signal.js";

// The port's semantics in one process, against a real DBOS on a real PostgreSQL. The crash and
// restart scenarios are in dbos-workflow.test.ts.

let postgres: Postgres;
let bodies: string[] = [];

const scenarios: Record<string, (durability: Durability) => Promise<string>> = {
  timeout: async (durability) => {
    const value = await durability.waitForSignal("never", { timeoutMs: 200 });
    return `timed out: ${value === undefined}`;
  },
  "null value": async (durability) => {
    await durability.step("slow", () => new Promise<null>((resolve) => setTimeout(() => resolve(null), 300)));
    const value = await durability.waitForSignal("nothing", { timeoutMs: 10_000 });
    return `value: ${JSON.stringify(value)}`;
  },
  "failing step": async (durability) => {
    try {
      await durability.step("fails", async () => {
        bodies.push("fails");
        throw new JunctionError("tool-execution-failed", "the tool broke");
      });
      return "no error";
    } catch (error) {
      return `caught: ${(error as Error).message} (${(error as { code?: string }).code})`;
    }
  },
  keys: async (durability) => {
    const first = await durability.step("model:1", async () => {
      bodies.push("model:1");
      return { text: "hello" };
    });
    const steps = await DBOS.listWorkflowSteps(durability.runId);
    return `${first.text} ${durability.runId} ${steps?.map((step) => step.name).join(",")}`;
  },
};

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
    bodies = [];
    const handle = await scenario.start("failing step", { runId: "port-failing" });
    expect(await handle.getResult()).toBe("caught: the tool broke (tool-execution-failed)");
    expect(bodies).toEqual(["fails"]);
  });

  it("names each DBOS step by its key and uses the workflow id as the run id; starting the same id again is the same run", async () => {
    bodies = [];
    const handle = await scenario.start("keys", { runId: "port-keys" });
    expect(await handle.getResult()).toBe("hello port-keys model:1");
    const again = await scenario.start("keys", { runId: "port-keys" });
    expect(await again.getResult()).toBe("hello port-keys model:1");
    expect(bodies).toEqual(["model:1"]);
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
