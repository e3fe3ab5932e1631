// A throwaway PostgreSQL cluster for the tests: Debian's packages, a temp directory, a loopback
// port. Never imported by the package's own code.
import { execFileSync, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@junction/durable-engines/processes";
import { errorMessage } from "@junction/types";

/** A running cluster: its URL for a database of the caller's choice, and how to stop it. */
export interface Postgres {
  readonly port: number;
  url(database: string): string;
  /** A crash and a start again: `pg_ctl restart -m immediate` (no clean shutdown). */
  restart(): void;
  stop(): void;
}

const INSTALL_HINT =
  "The DBOS tests need PostgreSQL from Debian's packages: run `bash scripts/run.sh test` as root (it installs them), or `apt-get install postgresql`.";

function findBinaries(): string {
  const onPath = spawnSync("sh", ["-c", "command -v pg_ctl"], { encoding: "utf8" }).stdout.trim();
  if (onPath !== "" && existsSync(join(onPath, "..", "initdb"))) return join(onPath, "..");
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => existsSync(join(root, name, "bin", "pg_ctl")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) throw new Error(`PostgreSQL (initdb, pg_ctl) was not found. ${INSTALL_HINT}`);
  return join(root, versions[0]!, "bin");
}

/** PostgreSQL refuses to run as root: as root, the cluster runs as the `postgres` user. */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => spawnSync("id", [flag, "postgres"], { encoding: "utf8" });
  const uid = id("-u");
  if (uid.status !== 0)
    throw new Error(`PostgreSQL cannot run as root and there is no postgres user. ${INSTALL_HINT}`);
  return { uid: Number(uid.stdout.trim()), gid: Number(id("-g").stdout.trim()) };
}

/** Creates and starts a cluster; the caller stops it (which also removes its directory). */
export async function startPostgres(
  options: {
    /** Where the cluster's port comes from (a test of the start itself hands out a taken one). */
    port?: () => Promise<number>;
  } = {},
): Promise<Postgres> {
  const nextPort = options.port ?? freePort;
  const bin = findBinaries();
  const user = runAs();
  const directory = mkdtempSync(join(tmpdir(), "junction-pg-"));
  if (user) chownSync(directory, user.uid, user.gid);
  const data = join(directory, "data");
  const log = join(directory, "log");
  let port = await nextPort();
  const run = (command: string, args: string[]) =>
    execFileSync(join(bin, command), args, { ...user, stdio: ["ignore", "pipe", "pipe"], cwd: directory });
  run("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"]);
  // fsync off: the tests crash processes, not the machine, so the page cache keeps every write.
  const serverOptions = () =>
    `-p ${port} -k ${directory} -c listen_addresses=127.0.0.1 -c max_connections=50 -c fsync=off`;
  const pgCtl = (...args: string[]) =>
    run("pg_ctl", ["-D", data, "-o", serverOptions(), "-l", log, "-w", ...args]);
  // A free port is bound by PostgreSQL a moment later, so another test process can take it in
  // between: a cluster that could not bind starts again on a new port (the first start only).
  for (let attempt = 1; ; attempt++) {
    try {
      pgCtl("start");
      break;
    } catch (error) {
      const text = existsSync(log) ? readFileSync(log, "utf8") : "";
      if (!/could not bind .*Address already in use/.test(text) || attempt === 3) {
        rmSync(directory, { recursive: true, force: true });
        throw new Error(`PostgreSQL did not start (${errorMessage(error).trim()}); its log:\n${text}`);
      }
      rmSync(log, { force: true });
      port = await nextPort();
    }
  }
  return {
    port,
    url: (database) => `postgresql://postgres@127.0.0.1:${port}/${database}`,
    restart: () => {
      pgCtl("restart", "-m", "immediate");
    },
    stop: () => {
      try {
        pgCtl("stop", "-m", "fast");
      } finally {
        rmSync(directory, { recursive: true, force: true });
      }
    },
  };
}
