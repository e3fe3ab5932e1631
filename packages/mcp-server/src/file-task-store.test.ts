import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fileTaskStore } from "./file-task-store.js";
import type { AgentTaskRecord } from "./task-store.js";

// The store's writes on the real file system, with one writer held just before it links its
// revision: the one moment at which another process can overtake it.
const held = vi.hoisted(() => ({
  /** The next `link` to a name ending so waits for `release`, after calling `reached`. */
  next: undefined as undefined | { nameEnd: string; reached: () => void; release: Promise<void> },
}));

vi.mock("node:fs/promises", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs/promises")>();
  return {
    ...fs,
    link: async (from: string, to: string) => {
      const hold = held.next;
      if (hold && to.endsWith(hold.nameEnd)) {
        held.next = undefined;
        hold.reached();
        await hold.release;
      }
      return fs.link(from, to);
    },
  };
});

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function newFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), "junction-file-task-store-"));
  folders.push(folder);
  return join(folder, "tasks");
}

function record(revision: number, statusMessage: string): AgentTaskRecord {
  return {
    kind: "junction.agent-task",
    version: 1,
    taskId: "task-1",
    tool: "report",
    owner: "",
    status: "working",
    statusMessage,
    createdAt: "2026-12-03T00:00:00.000Z",
    lastUpdatedAt: "2026-12-03T00:00:00.000Z",
    ttlMs: 60_000,
    revision,
  } as AgentTaskRecord;
}

describe("fileTaskStore", () => {
  it("refuses a writer overtaken by two later writes while it was linking the revision it read", async () => {
    const path = newFolder();
    const stale = fileTaskStore(path);
    const others = fileTaskStore(path);
    expect(await others.put(record(1, "created"), null)).toBe(true);

    // The stale writer read revision 1 and is about to link revision 2...
    let reached!: () => void;
    let release!: () => void;
    const atLink = new Promise<void>((resolve) => {
      reached = resolve;
    });
    held.next = { nameEnd: "task-1.2.json", reached, release: new Promise((resolve) => (release = resolve)) };
    const staleWrite = stale.put(record(2, "the stale writer's answer"), 1);
    await atLink;

    // ...when another process writes revision 2 and then revision 3 over it.
    expect(await others.put(record(2, "the first answer"), 1)).toBe(true);
    expect(await others.put(record(3, "the run resumed"), 2)).toBe(true);

    release();
    expect(await staleWrite).toBe(false);
    expect((await others.get("task-1"))?.statusMessage).toBe("the run resumed");
    expect(readFileSync(join(path, "task-1.2.json"), "utf8")).toBe("");
  });

  it("keeps one record per task to read, older revisions emptied, and removes them all on delete", async () => {
    const path = newFolder();
    const store = fileTaskStore(path);
    for (let revision = 1; revision <= 4; revision++) {
      expect(
        await store.put(record(revision, `revision ${revision}`), revision === 1 ? null : revision - 1),
      ).toBe(true);
    }
    expect(await store.put(record(4, "again"), 3)).toBe(false);
    expect((await store.get("task-1"))?.statusMessage).toBe("revision 4");
    expect((await store.list()).map((listed) => listed.statusMessage)).toEqual(["revision 4"]);
    expect(readdirSync(path).sort()).toEqual([
      "task-1.1.json",
      "task-1.2.json",
      "task-1.3.json",
      "task-1.4.json",
    ]);

    await store.delete("task-1");
    expect(await store.get("task-1")).toBeUndefined();
    expect(await store.list()).toEqual([]);
    expect(readdirSync(path)).toEqual([]);
  });
});
