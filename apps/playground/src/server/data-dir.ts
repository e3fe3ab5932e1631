import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";

/** Where the playground keeps its database and the sandbox folder of the filesystem server. */
export interface DataDir {
  root: string;
  databaseFile: string;
  sandbox: string;
}

/**
 * Resolves and creates the data directory: `$JUNCTION_PLAYGROUND_DIR`, else `~/.junction-playground`.
 * The sandbox folder (the only folder the default filesystem server may touch) is created with a
 * short README so there is something to list and read.
 */
export function prepareDataDir(root = process.env.JUNCTION_PLAYGROUND_DIR): DataDir {
  const directory = resolve(root && root.length > 0 ? root : join(homedir(), ".junction-playground"));
  const sandbox = join(directory, "sandbox");
  mkdirSync(sandbox, { recursive: true, mode: 0o700 });
  const readme = join(sandbox, "README.txt");
  if (!existsSync(readme)) {
    writeFileSync(
      readme,
      "This folder is the sandbox of the playground's filesystem server.\n" +
        "The server can read and write files here, and nowhere else.\n",
    );
  }
  return { root: directory, databaseFile: join(directory, "playground.db"), sandbox };
}
