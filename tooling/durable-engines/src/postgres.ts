// A throwaway PostgreSQL cluster for the tests: Debian's packages, a temp directory, a loopback
// port. Never imported by the package's own code.
import { execFileSync, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@junction/durable-engines/processes";

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
export async function startPostgres(): Promise<Postgres> {
  const bin = findBinaries();
  const user = runAs();
  const directory = mkdtempSync(join(tmpdir(), "junction-pg-"));
  if (user) chownSync(directory, user.uid, user.gid);
  const data = join(directory, "data");
  const port = await freePort();
  const run = (command: string, args: string[]) =>
    execFileSync(join(bin, command), args, { ...user, stdio: ["ignore", "pipe", "pipe"], cwd: directory });
  run("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"]);
  // fsync off: the tests crash processes, not the machine, so the page cache keeps every write.
  const options = `-p ${port} -k ${directory} -c listen_addresses=127.0.0.1 -c max_connections=50 -c fsync=off`;
  const pgCtl = (...args: string[]) =>
    run("pg_ctl", ["-D", data, "-o", options, "-l", join(directory, "log"), "-w", ...args]);
  pgCtl("start");
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
