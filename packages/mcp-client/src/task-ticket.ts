import { errorMessage, JunctionError } from "@junction/types";

/**
 * What a task-run `tools/call` learned of its task, kept by the call rather than by the
 * connection: once the server answered with a task, the task's id is what the call waits on, so
 * a call whose connection drops (a stdio server killed and restarted) follows the same task on
 * the next session instead of failing. Filled in by the task followers as answers arrive.
 */
export interface TaskTicket {
  /** The task's id, once the server answered the call with a task. */
  taskId?: string;
  /** The task's latest `requestState` (2026-07-28), echoed on the next session's requests. */
  requestState?: string;
  /** Keys of input requests whose answers the server acknowledged (`tasks/update`): not asked again. */
  answered: Set<string>;
}

/** A ticket for one call, with no task yet. */
export function createTaskTicket(): TaskTicket {
  return { answered: new Set() };
}

/**
 * The error of a resumed task whose `tasks/get` the server refused (most often: a restarted
 * server that kept no record of the task). Whether the tool ran is then not known.
 */
export function lostTaskError(tool: string, taskId: string, error: unknown): JunctionError {
  return new JunctionError(
    "mcp-request-failed",
    `after reconnecting, the MCP server no longer knows task "${taskId}" of tool "${tool}" (tasks/get failed: ${errorMessage(error)}); the tool may or may not have run, so check its effects before calling it again`,
    { cause: error },
  );
}
