import type { PendingToolCall, ResumeDecision, RunState } from "@junction/core";
import type { CallToolResult } from "@modelcontextprotocol/server";

/** The version of the `AgentTaskRecord` format this Junction writes and reads. */
export const AGENT_TASK_VERSION = 1;

/** A task's status, as the tasks extension (SEP-2663) names them. */
export type AgentTaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/**
 * An agent run served as a task, as plain, versioned JSON: what a `TaskStore` keeps so a task
 * outlives the process that started it. While it waits for a person, it carries the run's stopped
 * `state` and the calls waiting (`pending`); the server signs the record with its `stateKey`
 * and refuses a record whose signature does not match.
 */
export interface AgentTaskRecord {
  kind: "junction.agent-task";
  version: typeof AGENT_TASK_VERSION;
  taskId: string;
  /** The served tool that runs it (an agent tool, or a plain tool with task support). */
  tool: string;
  /** Who created it (the authenticated client's id, `""` without authentication): only they may see or answer it. */
  owner: string;
  status: AgentTaskStatus;
  statusMessage?: string;
  /** ISO times. */
  createdAt: string;
  lastUpdatedAt: string;
  /** How long the task is kept after it was created, in milliseconds. */
  ttlMs: number;
  /**
   * How many times the record was written: 1 when created, one more at every change. Signed with
   * the rest, so a store takes a write only over the revision it was read at (`TaskStore.put`),
   * and a server never takes back an older record of a task than one it has seen. Absent in
   * records written before it existed: they count as revision 0.
   */
  revision?: number;
  /** The run's id (its `RunState.runId`), once it stopped for approvals. */
  runId?: string;
  /** The stopped run, while `status` is `input_required`. */
  state?: RunState;
  /** The calls waiting for a person, while `status` is `input_required`. */
  pending?: PendingToolCall[];
  /** The answers given so far to the pending calls, by call id (a run in a server's own process). */
  decisions?: Record<string, ResumeDecision>;
  /** The tool result, once `completed`. */
  result?: CallToolResult;
  /** The JSON-RPC error, once `failed`. */
  error?: { code: number; message: string };
  /** HMAC-SHA-256 (hex) of the rest of the record with the server's `stateKey`. */
  signature?: string;
}

/**
 * Where served agent tasks are kept: in memory by default (`InMemoryTaskStore`), files with
 * `fileTaskStore` (`@junction/mcp-server/node`), or your database. Every write is conditional,
 * so that when two answers to one approval race (in one process, or in two processes sharing
 * the store) exactly one of them wins: `put` stores a record only over the revision it was read
 * at, as a database's `UPDATE … WHERE revision = ?` does.
 */
export interface TaskStore {
  get(taskId: string): Promise<AgentTaskRecord | undefined>;
  /**
   * Stores `record` if the record stored now for its `taskId` is at revision `expectedRevision`
   * (`null`: none is stored; a stored record without `revision` is at 0), atomically: resolves
   * `true` once it is stored, `false` (storing nothing) when another writer got there first.
   */
  put(record: AgentTaskRecord, expectedRevision: number | null): Promise<boolean>;
  delete(taskId: string): Promise<void>;
  /** Every record kept (to count a client's open tasks, and to drop expired ones). */
  list(): Promise<AgentTaskRecord[]>;
}

/** The revision of a stored record (0 for records written before revisions existed). */
export function revisionOf(record: Pick<AgentTaskRecord, "revision">): number {
  return record.revision ?? 0;
}

/** Keeps task records in this process's memory (copies in, copies out). */
export class InMemoryTaskStore implements TaskStore {
  readonly #records = new Map<string, AgentTaskRecord>();

  /** Starts with `records` (for example read back from a file). */
  constructor(records: AgentTaskRecord[] = []) {
    for (const record of records) this.#records.set(record.taskId, structuredClone(record));
  }

  async get(taskId: string): Promise<AgentTaskRecord | undefined> {
    const record = this.#records.get(taskId);
    return record ? structuredClone(record) : undefined;
  }

  async put(record: AgentTaskRecord, expectedRevision: number | null): Promise<boolean> {
    // Checked and set in one synchronous step: no other write can come in between.
    const stored = this.#records.get(record.taskId);
    const current = stored === undefined ? null : revisionOf(stored);
    if (current !== expectedRevision) return false;
    this.#records.set(record.taskId, structuredClone(record));
    return true;
  }

  async delete(taskId: string): Promise<void> {
    this.#records.delete(taskId);
  }

  async list(): Promise<AgentTaskRecord[]> {
    return [...this.#records.values()].map((record) => structuredClone(record));
  }
}
