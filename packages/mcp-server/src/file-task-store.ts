import { readFile, rename, writeFile } from "node:fs/promises";
import { JunctionError } from "@junction/types";
import type { AgentTaskRecord, TaskStore } from "./task-store.js";

/**
 * Keeps served agent tasks in one JSON file, so a task waiting for an approval outlives the
 * process: a restarted server (same file, same `stateKey`) resumes the run when the answer comes.
 * Each change rewrites the file (written beside it, then renamed). For one server process; use
 * a database behind `TaskStore` for more.
 *
 * @example
 * ```ts
 * createMCPServer({ ..., stateKey: process.env.MCP_STATE_KEY, tasks: { store: fileTaskStore("./tasks.json") } });
 * ```
 */
export function fileTaskStore(path: string): TaskStore {
  let records: Promise<Map<string, AgentTaskRecord>> | undefined;
  let writing: Promise<void> = Promise.resolve();
  const load = () => {
    records ??= readFile(path, "utf8").then(
      (text) => {
        const parsed = JSON.parse(text) as { tasks?: AgentTaskRecord[] };
        if (!Array.isArray(parsed.tasks)) {
          throw new JunctionError(
            "invalid-argument",
            `fileTaskStore: ${path} holds no "tasks" list; is it a task file?`,
          );
        }
        return new Map(parsed.tasks.map((record) => [record.taskId, record]));
      },
      (error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return new Map<string, AgentTaskRecord>();
        throw error;
      },
    );
    return records;
  };
  const save = (map: Map<string, AgentTaskRecord>) => {
    const text = JSON.stringify({ tasks: [...map.values()] });
    writing = writing.then(async () => {
      const temporary = `${path}.${process.pid}.tmp`;
      await writeFile(temporary, text);
      await rename(temporary, path);
    });
    return writing;
  };
  return {
    async get(taskId) {
      const record = (await load()).get(taskId);
      return record ? structuredClone(record) : undefined;
    },
    async put(record) {
      const map = await load();
      map.set(record.taskId, structuredClone(record));
      await save(map);
    },
    async delete(taskId) {
      const map = await load();
      if (map.delete(taskId)) await save(map);
    },
    async list() {
      return [...(await load()).values()].map((record) => structuredClone(record));
    },
  };
}
