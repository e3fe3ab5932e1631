import { DBOS } from "@dbos-inc/dbos-sdk";
import { type Postgres, startPostgres } from "@junction/durable-engines/postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dbosDurability } from "./dbos-durability.js";
import { sendSignal } from "./send-signal.js";

// What only DBOS's port does, against a real DBOS on a real PostgreSQL: it refuses a signal for a
// run it never started (Restate keeps one for later), and a port made outside a workflow. The
// port's semantics both engines share are the engine contract's (test/dbos-in-process.contract.test.ts),
// its crash and restart scenarios too (test/dbos-workers.contract.test.ts).

let postgres: Postgres;

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

describe("dbosDurability, what only DBOS does", () => {
  it("refuses a signal for a run that was never started (DBOS's own check)", async () => {
    await expect(
      sendSignal({ sender: DBOS, runId: "port-unknown", name: "approval:1", value: true }),
    ).rejects.toThrow("Sent to non-existent destination workflow UUID: port-unknown");
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
