import { DBOS } from "@dbos-inc/dbos-sdk";
import { type Postgres, startPostgres } from "@junction/durable-engines/postgres";
import { waitFor } from "@junction/durable-engines/processes";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimExecutor, recoverRunsOf } from "./executor-lease.js";

// The executor lease in one process, against a real PostgreSQL: who may hold an executor id, and
// when its runs may be taken over. The two-machine scenario is in dbos-executor-recovery.test.ts.

let postgres: Postgres;
let systemDatabaseUrl: string;

beforeAll(async () => {
  postgres = await startPostgres();
  systemDatabaseUrl = postgres.url("junction_dbos_lease");
  // DBOS's tables, which recoverRunsOf reads.
  DBOS.setConfig({ name: "junction-dbos-lease", systemDatabaseUrl, logLevel: "error" });
  await DBOS.launch();
});
afterAll(async () => {
  await DBOS.shutdown();
  postgres?.stop();
});

describe("claimExecutor and recoverRunsOf", () => {
  it("lets one live process hold an executor id, and takes its runs over only once it is released", async () => {
    const held = await claimExecutor({ systemDatabaseUrl, executorId: "machine-1" });
    await expect(claimExecutor({ systemDatabaseUrl, executorId: "machine-1" })).rejects.toMatchObject({
      code: "invalid-argument",
      message:
        'The executor "machine-1" is held by another live worker: give each worker its own executor id (executorID in DBOS.setConfig, or DBOS__VMID).',
    });
    await expect(recoverRunsOf({ systemDatabaseUrl, executorId: "machine-1" })).rejects.toMatchObject({
      code: "invalid-argument",
      message:
        'The executor "machine-1" is alive (its worker holds its lease), so its runs were not taken over: they go on there.',
    });
    // Another id is another machine's.
    const other = await claimExecutor({ systemDatabaseUrl, executorId: "machine-2" });
    await held.release();
    expect(await recoverRunsOf({ systemDatabaseUrl, executorId: "machine-1" })).toEqual([]);
    // recoverRunsOf gives the lease back when it is done: a restarted machine-1 claims it again.
    const restarted = await claimExecutor({ systemDatabaseUrl, executorId: "machine-1" });
    await restarted.release();
    await other.release();
  });

  it("tells the worker when its lease's connection is gone, so it stops before another machine takes its runs", async () => {
    const lost: string[] = [];
    await claimExecutor({
      systemDatabaseUrl,
      executorId: "machine-3",
      onLost: (error) => lost.push(error.message),
    });
    // What a network failure or a PostgreSQL restart does to the lease's session.
    const admin = new pg.Client({ connectionString: systemDatabaseUrl });
    await admin.connect();
    await admin.query(
      "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND objid = hashtext('machine-3')::oid",
    );
    await admin.end();
    await waitFor(() => lost.length > 0, { timeoutMs: 5000, what: "onLost" });
    expect(lost[0]).toMatch(
      /^The lease of executor "machine-3" was lost \(.+\): another worker may take over its runs, so this one must stop\.$/,
    );
    expect(lost).toHaveLength(1);
    // Free again: its runs may now be taken over.
    expect(await recoverRunsOf({ systemDatabaseUrl, executorId: "machine-3" })).toEqual([]);
  });
});
