import { DBOSClient } from "@dbos-inc/dbos-sdk";
import { errorMessage, JunctionError } from "@junction/types";
import pg from "pg";

/**
 * Which machine runs a run, on DBOS without DBOS Conductor: each worker process is an executor
 * with an id of its own (`executorID` in `DBOS.setConfig`, or `DBOS__VMID`), and holds that id's
 * lease, a PostgreSQL advisory lock on the system database, for as long as it lives. A process
 * that dies (or a machine that drops off the network) loses its connection, and with it the
 * lease; {@link recoverRunsOf} takes over an executor's runs only while it holds that
 * executor's lease, so a run is never taken from a worker that still runs it.
 */

/** The advisory lock's first key: the lock space of Junction's executor leases. */
const LEASE_SPACE = 0x4a4e4358; // "JNCX"

/** Options of {@link claimExecutor}. */
export interface ClaimExecutorOptions {
  /** The DBOS system database (the `systemDatabaseUrl` DBOS is launched with). */
  readonly systemDatabaseUrl: string;
  /** This worker's executor id: the `executorID` DBOS is launched with, one per machine. */
  readonly executorId: string;
  /**
   * How often the lease's connection says it is alive; PostgreSQL ends a lease connection that
   * says nothing for three times as long (`idle_session_timeout`), so a machine gone silent
   * loses its lease after at most that long.
   * @default 5000
   */
  readonly heartbeatMs?: number;
  /**
   * Called when the lease is lost while the worker runs (the connection to PostgreSQL broke):
   * another machine may take over this executor's runs from then on, so this worker must stop
   * running them.
   * @default prints the reason and exits the process with code 1 (a supervisor starts it again,
   * and DBOS recovers what is still this executor's)
   */
  readonly onLost?: (error: Error) => void;
}

/** A held executor lease. */
export interface ExecutorLease {
  readonly executorId: string;
  /** Gives the lease up (on a clean shutdown, after `DBOS.shutdown()`). */
  release(): Promise<void>;
}

/**
 * Claims the lease of `executorId` for this process: call it before `DBOS.launch()` with the
 * executor id DBOS is launched with, in every worker. Fails when another live process holds
 * that id (two workers must not share one): give each machine its own.
 *
 * @example
 * ```ts
 * const executorId = process.env.DBOS__VMID!; // "worker-a" on one machine, "worker-b" on another
 * await claimExecutor({ systemDatabaseUrl, executorId });
 * DBOS.setConfig({ name: "assistant", systemDatabaseUrl, executorID: executorId });
 * await DBOS.launch(); // recovers this executor's unfinished runs
 * ```
 * @throws JunctionError `invalid-argument` when the lease is held by another live process.
 */
export async function claimExecutor(options: ClaimExecutorOptions): Promise<ExecutorLease> {
  const heartbeatMs = options.heartbeatMs ?? 5000;
  const client = await connect(options.systemDatabaseUrl);
  let released = false;
  const onLost =
    options.onLost ??
    ((error: Error) => {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    });
  try {
    await client
      .query(`SET idle_session_timeout = ${Math.max(1000, Math.round(heartbeatMs * 3))}`)
      .catch((error: unknown) => {
        // PostgreSQL before 14 has no idle_session_timeout: the lease then lasts until TCP notices.
        if ((error as { code?: unknown }).code !== "42704") throw error;
      });
    if (!(await tryLock(client, options.executorId))) {
      throw new JunctionError(
        "invalid-argument",
        `The executor "${options.executorId}" is held by another live worker: give each worker its own executor id (executorID in DBOS.setConfig, or DBOS__VMID).`,
      );
    }
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  const heartbeat = setInterval(() => {
    client.query("SELECT 1").catch(() => undefined); // a failure surfaces as the connection's error
  }, heartbeatMs);
  heartbeat.unref();
  const lost = (cause: unknown) => {
    if (released) return;
    released = true;
    clearInterval(heartbeat);
    onLost(
      new JunctionError(
        "invalid-argument",
        `The lease of executor "${options.executorId}" was lost (${errorMessage(cause)}): another worker may take over its runs, so this one must stop.`,
        { cause },
      ),
    );
  };
  client.on("error", lost);
  client.on("end", () => lost(new Error("the connection to PostgreSQL closed")));
  return {
    executorId: options.executorId,
    release: async () => {
      if (released) return;
      released = true;
      clearInterval(heartbeat);
      await client.end();
    },
  };
}

/** Options of {@link recoverRunsOf}. */
export interface RecoverRunsOptions {
  /** The DBOS system database. */
  readonly systemDatabaseUrl: string;
  /** The executor whose unfinished runs to take over: a machine that is gone. */
  readonly executorId: string;
}

/**
 * Takes over the unfinished runs of a lost machine's executor: they are queued again on DBOS's
 * internal queue, and the live workers (any executor) pick them up and replay them from the
 * journal, each finished step once, each waiting approval still waiting (not asked again). Safe
 * to run from any process, at any time: it does so only while it holds the executor's lease,
 * which a live worker holds for as long as it runs, so it never hands a run to a second machine.
 * Resolves with the ids of the runs taken over.
 *
 * @example
 * ```ts
 * // worker-a's machine is gone for good:
 * const runIds = await recoverRunsOf({ systemDatabaseUrl, executorId: "worker-a" });
 * ```
 * @throws JunctionError `invalid-argument` when the executor's worker is alive (it holds its lease).
 */
export async function recoverRunsOf(options: RecoverRunsOptions): Promise<string[]> {
  const lock = await connect(options.systemDatabaseUrl);
  try {
    if (!(await tryLock(lock, options.executorId))) {
      throw new JunctionError(
        "invalid-argument",
        `The executor "${options.executorId}" is alive (its worker holds its lease), so its runs were not taken over: they go on there.`,
      );
    }
    const client = await DBOSClient.create({ systemDatabaseUrl: options.systemDatabaseUrl });
    try {
      const runs = await client.listWorkflows({ status: "PENDING", executorId: options.executorId });
      const runIds = runs.map((run) => run.workflowID);
      if (runIds.length > 0) await client.resumeWorkflows(runIds);
      return runIds;
    } finally {
      await client.destroy();
    }
  } finally {
    // Ending the session gives the lock up.
    await lock.end().catch(() => undefined);
  }
}

async function tryLock(client: pg.Client, executorId: string): Promise<boolean> {
  const result = await client.query<{ locked: boolean }>(
    "SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked",
    [LEASE_SPACE, executorId],
  );
  return result.rows[0]?.locked === true;
}

/** A connection to the system database, which is created when it does not exist yet (as `DBOS.launch()` does). */
async function connect(systemDatabaseUrl: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: systemDatabaseUrl });
  try {
    await client.connect();
    return client;
  } catch (error) {
    if ((error as { code?: unknown }).code !== "3D000") throw error;
  }
  const url = new URL(systemDatabaseUrl);
  const database = decodeURIComponent(url.pathname.slice(1));
  url.pathname = "/postgres";
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${database.replaceAll('"', '""')}"`);
  } catch (error) {
    // Another worker created it meanwhile: "already exists", or, when both ran at once, the
    // catalog's unique index.
    const code = (error as { code?: unknown }).code;
    if (code !== "42P04" && code !== "23505") throw error;
  } finally {
    await admin.end();
  }
  const created = new pg.Client({ connectionString: systemDatabaseUrl });
  await created.connect();
  return created;
}
