import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentTaskRecord } from "@junction/mcp-server";

/**
 * The tasks a `fileTaskStore(folder)` keeps: each task's newest revision file, without the
 * in-process runs' own records (`run-…`).
 */
export function storedTasks(folder: string): AgentTaskRecord[] {
  const newest = new Map<string, { revision: number; name: string }>();
  for (const name of readdirSync(folder)) {
    const match = /^([A-Za-z0-9_-]+)\.([0-9]+)\.json$/.exec(name);
    if (!match || match[1]?.startsWith("run-")) continue;
    const [taskId, revision] = [match[1] as string, Number(match[2])];
    if (revision > (newest.get(taskId)?.revision ?? -1)) newest.set(taskId, { revision, name });
  }
  return [...newest.values()].map(
    ({ name }) => JSON.parse(readFileSync(join(folder, name), "utf8")) as AgentTaskRecord,
  );
}
