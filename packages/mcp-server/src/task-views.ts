import type { AgentTaskRecord } from "./task-store.js";

/** A task as `tasks/get` (a `DetailedTask`) and a `CreateTaskResult` show it. */
export type TaskView = Record<string, unknown> & { taskId: string; status: string };

/** A task as the 2025-11-25 `Task` shows it (`tasks/get`, `tasks/list`, `CreateTaskResult.task`). */
export type LegacyTaskView = Record<string, unknown> & {
  taskId: string;
  status: "working" | "input_required" | "completed" | "failed" | "cancelled";
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttl: number;
  pollInterval: number;
};

/** A task as the tasks extension (2026-07-28) shows it, without its input requests or result. Pure. */
export function taskView(record: AgentTaskRecord, pollIntervalMs: number): TaskView {
  return {
    taskId: record.taskId,
    status: record.status,
    ...(record.statusMessage === undefined ? {} : { statusMessage: record.statusMessage }),
    createdAt: record.createdAt,
    lastUpdatedAt: record.lastUpdatedAt,
    ttlMs: record.ttlMs,
    pollIntervalMs,
  };
}

/** A task as the 2025-11-25 `Task` shows it: a tool result with `isError` is a `failed` task. Pure. */
export function legacyTaskView(record: AgentTaskRecord, pollIntervalMs: number): LegacyTaskView {
  return {
    taskId: record.taskId,
    status: record.status === "completed" && record.result?.isError === true ? "failed" : record.status,
    ...(record.statusMessage === undefined ? {} : { statusMessage: record.statusMessage }),
    createdAt: record.createdAt,
    lastUpdatedAt: record.lastUpdatedAt,
    ttl: record.ttlMs,
    pollInterval: pollIntervalMs,
  };
}

/** Whether a task's status is an end (`completed`, `failed`, `cancelled`). */
export function isTerminal(status: string): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}
