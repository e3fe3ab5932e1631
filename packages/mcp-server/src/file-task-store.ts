import { randomUUID } from "node:crypto";
import { link, mkdir, open, readdir, readFile, rename, rm, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import { JunctionError } from "@junction/types";
import { type AgentTaskRecord, revisionOf, type TaskStore } from "./task-store.js";

// One folder, one file per revision of each task (`<taskId>.<revision>.json`). A write of
// revision N+1 over N is `link(temporary, "<taskId>.<N+1>.json")`, which fails when the name
// exists: of two writers that read revision N, in one process or in two, exactly one wins,
// without a lock that a crashed process could leave behind. The newest revision is the record.
// An older one is emptied once a newer one is in place, never removed: its name stays taken, so a
// writer that read it long ago (and is only now linking the revision after it) still loses, where
// a removed name would let that stale write in as if it had won. A task's files go with the task.

/** Task ids this store keeps: what Junction makes (UUIDs), never a path. */
const TASK_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** A revision file's name: the task id, the revision, `.json`. */
const REVISION_FILE = /^([A-Za-z0-9_-]{1,128})\.([0-9]{1,15})\.json$/;

/**
 * Keeps served agent tasks in a folder (made with mode 0700, files 0600), so a task waiting for an
 * approval outlives the process: a restarted server (same folder, same `stateKey`) resumes the run
 * when the answer comes. Several server processes on one machine may share the folder: every write
 * is conditional (`TaskStore.put`), so two answers to one approval sent to two processes resume
 * the run once. A folder written by an older Junction as one JSON file (`{ "tasks": [...] }`) is
 * moved into the new layout the first time it is read, and the old file kept beside it as
 * `<path>.v1.json`.
 *
 * @example
 * ```ts
 * createMCPServer({ ..., stateKey: process.env.MCP_STATE_KEY, tasks: { store: fileTaskStore("./tasks") } });
 * ```
 */
export function fileTaskStore(path: string): TaskStore {
  let ready: Promise<void> | undefined;
  const folder = () => {
    ready ??= prepareFolder(path);
    return ready;
  };
  return {
    async get(taskId) {
      if (!TASK_ID.test(taskId)) return undefined;
      await folder();
      return readNewest(path, taskId);
    },
    async put(record, expectedRevision) {
      checkTaskId(record.taskId);
      await folder();
      const stored = await newestRevision(path, record.taskId);
      if (stored !== expectedRevision) return false;
      const next = revisionOf(record);
      if (next <= (stored ?? -1)) {
        throw new JunctionError(
          "invalid-argument",
          `fileTaskStore: the record of task "${record.taskId}" has revision ${next}, not above the stored ${stored}: a write must raise the revision.`,
        );
      }
      const temporary = join(path, `.${randomUUID()}.tmp`);
      await writeExclusive(temporary, JSON.stringify(record));
      try {
        await link(temporary, join(path, `${record.taskId}.${next}.json`));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
        throw error;
      } finally {
        await unlink(temporary).catch(() => undefined); // already gone: nothing to clean
      }
      await emptyOlder(path, record.taskId, next);
      return true;
    },
    async delete(taskId) {
      if (!TASK_ID.test(taskId)) return;
      await folder();
      await removeAll(path, taskId);
    },
    async list() {
      await folder();
      const newest = new Map<string, number>();
      for (const { taskId, revision } of await revisionFiles(path)) {
        if (revision > (newest.get(taskId) ?? -1)) newest.set(taskId, revision);
      }
      const records: AgentTaskRecord[] = [];
      for (const taskId of newest.keys()) {
        const record = await readNewest(path, taskId);
        if (record) records.push(record);
      }
      return records;
    },
  };
}

function checkTaskId(taskId: string): void {
  if (!TASK_ID.test(taskId)) {
    throw new JunctionError(
      "invalid-argument",
      `fileTaskStore: the task id ${JSON.stringify(taskId)} is not one this store keeps (letters, digits, "_" and "-", at most 128).`,
    );
  }
}

/** Makes the folder (0700), or moves a one-file store of an older Junction into it. */
async function prepareFolder(path: string): Promise<void> {
  const found = await stat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  if (found?.isDirectory()) return;
  if (!found) {
    await mkdir(path, { recursive: true, mode: 0o700 });
    return;
  }
  // An older Junction's one JSON file: take it out of the way (one process wins the rename), then
  // write its records into the folder at their revision.
  const moved = `${path}.v1.json`;
  try {
    await rename(path, moved);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return prepareFolder(path); // another process moved it
    throw error;
  }
  const parsed = JSON.parse(await readFile(moved, "utf8")) as { tasks?: AgentTaskRecord[] };
  if (!Array.isArray(parsed.tasks)) {
    await rename(moved, path);
    throw new JunctionError(
      "invalid-argument",
      `fileTaskStore: ${path} holds no "tasks" list; is it a task file?`,
    );
  }
  await mkdir(path, { recursive: true, mode: 0o700 });
  for (const record of parsed.tasks) {
    if (typeof record?.taskId !== "string" || !TASK_ID.test(record.taskId)) continue;
    const temporary = join(path, `.${randomUUID()}.tmp`);
    await writeExclusive(temporary, JSON.stringify(record));
    await link(temporary, join(path, `${record.taskId}.${revisionOf(record)}.json`)).catch(() => undefined);
    await unlink(temporary);
  }
}

/** Writes a new file only this process can have made (it must not exist; no symlink is followed), mode 0600. */
async function writeExclusive(file: string, text: string): Promise<void> {
  const handle = await open(file, "wx", 0o600);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function revisionFiles(path: string): Promise<{ taskId: string; revision: number; name: string }[]> {
  const files: { taskId: string; revision: number; name: string }[] = [];
  for (const name of await readdir(path)) {
    const match = REVISION_FILE.exec(name);
    if (match) files.push({ taskId: match[1] as string, revision: Number(match[2]), name });
  }
  return files;
}

async function newestRevision(path: string, taskId: string): Promise<number | null> {
  let newest: number | null = null;
  for (const file of await revisionFiles(path)) {
    if (file.taskId === taskId && file.revision > (newest ?? -1)) newest = file.revision;
  }
  return newest;
}

/**
 * The task's newest record; a file emptied or removed between the listing and the read (a newer
 * one came, or the task was deleted) is looked up again.
 */
async function readNewest(path: string, taskId: string): Promise<AgentTaskRecord | undefined> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const revision = await newestRevision(path, taskId);
    if (revision === null) return undefined;
    let text: string;
    try {
      text = await readFile(join(path, `${taskId}.${revision}.json`), "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      continue;
    }
    if (text !== EMPTIED) return JSON.parse(text) as AgentTaskRecord;
    // Emptied and still the newest: only emptied names are left (a delete raced a write's emptying).
    if ((await newestRevision(path, taskId)) === revision) return undefined;
  }
  throw new JunctionError(
    "task-store-busy",
    `fileTaskStore: the task "${taskId}" changed five times while it was read; try again.`,
  );
}

/** What an older revision holds once a newer one is in place: nothing, its name kept taken. */
const EMPTIED = "";

/**
 * Empties the task's revision files below `below`, each replaced whole by an empty file (a rename
 * over it, so the name is never free for a moment).
 */
async function emptyOlder(path: string, taskId: string, below: number): Promise<void> {
  for (const file of await revisionFiles(path)) {
    if (file.taskId !== taskId || file.revision >= below) continue;
    const name = join(path, file.name);
    const found = await stat(name).catch(() => undefined);
    if (found === undefined || found.size === EMPTIED.length) continue; // emptied already, or deleted
    const emptied = join(path, `.${randomUUID()}.tmp`);
    await (await open(emptied, "wx", 0o600)).close();
    await rename(emptied, name);
  }
}

/** Removes every revision file of the task. */
async function removeAll(path: string, taskId: string): Promise<void> {
  for (const file of await revisionFiles(path)) {
    // A file another process removed already is gone either way.
    if (file.taskId === taskId) await rm(join(path, file.name), { force: true });
  }
}
