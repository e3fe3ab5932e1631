import { chmodSync, closeSync, existsSync, mkdirSync, openSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";

/** Where the playground keeps its database and the sandbox folder of the filesystem server. */
export interface DataDir {
  root: string;
  databaseFile: string;
  /** The keys that sign stored run states (`run-state-key.json`, 0600), made on first start. */
  runStateKeyFile: string;
  sandbox: string;
}

/**
 * Resolves and creates the data directory: `$JUNCTION_PLAYGROUND_DIR`, else `~/.junction-playground`.
 * The sandbox folder (the only folder the default filesystem server may touch) is created with a
 * short README so there is something to list and read. The folder holds server secrets (header
 * and env values in the database): it is made, or tightened if it exists, to 0700.
 */
export function prepareDataDir(root = process.env.JUNCTION_PLAYGROUND_DIR): DataDir {
  const directory = resolve(root && root.length > 0 ? root : join(homedir(), ".junction-playground"));
  const sandbox = join(directory, "sandbox");
  mkdirSync(sandbox, { recursive: true, mode: 0o700 });
  chmodSync(directory, 0o700);
  const readme = join(sandbox, "README.txt");
  if (!existsSync(readme)) {
    writeFileSync(
      readme,
      "This folder is the sandbox of the playground's filesystem server.\n" +
        "The server can read and write files here, and nowhere else.\n",
    );
  }
  return {
    root: directory,
    databaseFile: join(directory, "playground.db"),
    runStateKeyFile: join(directory, "run-state-key.json"),
    sandbox,
  };
}

/**
 * Makes the database file, and SQLite's `-wal` and `-shm` beside it, readable by the owner only
 * (0600), creating them empty if they do not exist yet: SQLite gives the journal files the
 * database's mode, and an existing file made by an older version is tightened.
 */
export function restrictDatabaseFiles(databaseFile: string): void {
  for (const file of [databaseFile, `${databaseFile}-wal`, `${databaseFile}-shm`]) {
    if (!existsSync(file)) {
      if (file !== databaseFile) continue;
      closeSync(openSync(file, "a", 0o600));
    }
    chmodSync(file, 0o600);
  }
}
