import type { PendingToolCall } from "@junction/core";
import type { AuthInfo, ClientCapabilities } from "@modelcontextprotocol/server";
import type { DurableAgentRuns } from "./durable-runs.js";
import type { TaskQuestionMethod } from "./pass-through.js";
import type { TaskStore } from "./task-store.js";
import type { LegacyTaskView } from "./task-views.js";

// What `createMCPServer({ tasks })` takes, and what the serving files tell the task layer of a
// task's client.

/** The MCP tasks extension (SEP-2663). */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** How served agents and tools run as tasks (the tasks extension of 2026-07-28, and 2025-11-25 tasks). */
export interface MCPTaskOptions {
  /** Where tasks are kept. @default an `InMemoryTaskStore` (tasks end with the process) */
  store?: TaskStore;
  /**
   * Runs going at once in this process per client, agents' and tools' (authenticated client id; one pool without
   * authentication); a task call beyond it is refused (-32603) until one ends or waits for input, and so is an
   * answer that would resume a waiting run beyond it (not taken: the task still waits for it).
   * @default 4
   */
  maxConcurrentRuns?: number;
  /**
   * Tasks not yet ended (working or waiting for input) per client; beyond it a task call is refused.
   * @default 100
   */
  maxOpenTasks?: number;
  /** The poll interval suggested to clients. @default 500 */
  pollIntervalMs?: number;
  /**
   * How long a task is kept after it was created; a 2025-11-25 client's `task.ttl` may ask for
   * less, not more. @default 604800000 (7 days)
   */
  ttlMs?: number;
  /**
   * Runs the agent tools' runs on a durable engine instead of in this process: the task is the
   * engine's run (same id), `tasks/get` reads its status and pending approvals from the engine,
   * `tasks/update` answers through it, and any process with the same store and `stateKey`
   * serves the task. `maxConcurrentRuns` does not apply (the engine runs them).
   */
  runs?: DurableAgentRuns;
  /**
   * Who answers a served agent's approvals. `"caller"`: the client whose call started the run
   * (an elicitation, the task's input request). `"operator"`: nobody over MCP; the task waits
   * (`input_required`, its status message saying so) until your own process answers with
   * `server.answerApproval()` (listed by `server.pendingApprovals()`), and answers a client sends
   * count for nothing. A plain call (no task) of an agent tool that needs approval then ends with
   * an `isError` result saying to call it as a task.
   * @default "caller"
   */
  approver?: "caller" | "operator";
}

/** A call of a served agent's task that waits for the operator (`approver: "operator"`). */
export interface PendingTaskApproval {
  taskId: string;
  /** The agent tool the task runs. */
  tool: string;
  /** The call, as the run listed it; answer it with `server.answerApproval()`. */
  item: PendingToolCall;
}

/**
 * Who started a task, as far as the task layer must know: what the serving file of the client's
 * protocol era decides (the era itself lives there, not here).
 */
export interface TaskClient {
  /**
   * Arguments that do not fit the tool's schema: `"refuse"` throws `tool-input-invalid` (no task:
   * 2026-07-28, where the server decides); `"end-task"` makes a task that ended at once with the
   * plain call's `isError` result (2025-11-25, where the client asked for a task).
   */
  invalidInput: "refuse" | "end-task";
  /**
   * Throws when this client cannot answer an upstream request (elicitation, sampling) of the
   * run (2026-07-28: from what it declared); absent: it is asked later, when it asks for the
   * result (2025-11-25 `tasks/result`).
   */
  canAnswer?: ((method: TaskQuestionMethod, tool: string) => void) | undefined;
  /**
   * Tells the client that created the task of each change of its status (2025-11-25
   * `notifications/tasks/status`, the `Task` as `tasks/get` shows it); returns `false` once the
   * client cannot be told any more (its connection closed), and is not called again.
   */
  notify?: ((task: LegacyTaskView) => boolean) | undefined;
  /** The protocol era of the request that created the task (what a tool's `servedContext()` shows). */
  era?: "legacy" | "modern" | undefined;
  /** What the client declared it can do, when it created the task. */
  capabilities?: ClientCapabilities | undefined;
  /** The verified token of the request that created the task. */
  authInfo?: AuthInfo | undefined;
}

/** A request a 2025-11-25 `tasks/result` sends its client on the task's behalf; resolves with the answer. */
export type AskClient = (method: TaskQuestionMethod, params: Record<string, unknown>) => Promise<unknown>;
