import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openPlayground } from "./app.js";

// Issue 11, hole 7: playground.db (header and env secrets) was created 0644, and a pre-existing
// --dir was not tightened.
const parent = mkdtempSync(join(tmpdir(), "junction-playground-modes-"));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe("the data folder and the database are private to their owner", () => {
  it("tightens an existing 0755 folder to 0700 and makes the database and its WAL/SHM files 0600", async () => {
    const previous = process.umask(0o022);
    try {
      const directory = join(parent, "existing");
      mkdirSync(directory, { mode: 0o755 });
      chmodSync(directory, 0o755);
      const playground = await openPlayground({ directory, environment: {}, seedDefaults: false });
      try {
        playground.store.setSetting("probe", "written");
        const database = join(directory, "playground.db");
        expect(existsSync(`${database}-wal`)).toBe(true);
        expect([directory, database, `${database}-wal`, `${database}-shm`].map(modeOf)).toEqual([
          0o700, 0o600, 0o600, 0o600,
        ]);
      } finally {
        await playground.close();
      }
    } finally {
      process.umask(previous);
    }
  });

  it("tightens a database an older version left readable by everyone", async () => {
    const directory = join(parent, "older");
    const first = await openPlayground({ directory, environment: {}, seedDefaults: false });
    await first.close();
    const database = join(directory, "playground.db");
    chmodSync(database, 0o644);
    chmodSync(directory, 0o755);
    const second = await openPlayground({ directory, environment: {}, seedDefaults: false });
    await second.close();
    expect([modeOf(directory), modeOf(database)]).toEqual([0o700, 0o600]);
  });
});
