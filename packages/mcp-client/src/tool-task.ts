import { JunctionError } from "@junction/types";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { AnyResultSchema } from "./convert-tool-result.js";

/** How long to keep listening for the id of a task the caller gave up on, so it can be cancelled. */
const TASK_ID_GRACE_MS = 10_000;

export interface ToolTaskOptions {
  /** Options for each request of the task (the call, every poll). */
  requestOptions: RequestOptions;
  /** The caller's signal: aborting it rejects at once and cancels the task. */
  signal?: AbortSignal;
  /** The whole task's time limit, polls included. */
  timeoutMs: number;
  onprogress?: RequestOptions["onprogress"];
}

/**
 * Runs a `tools/call` as a task (`tasks/get` polled to the end) and resolves with the raw result.
 * A failed call rejects with the server's error. An abort or the time limit rejects at once and
 * cancels the task on the server (`tasks/cancel`), also when the caller gives up after the server
 * created the task but before its id reached us: the id is then awaited (for a while) to cancel it.
 */
export function runToolTask(
  client: Client,
  params: { name: string; arguments: Record<string, unknown> },
  options: ToolTaskOptions,
): Promise<Record<string, unknown>> {
  const stream = new AbortController();
  let taskId: string | undefined;
  let gaveUp = false;
  let done = false;
  const cancelOnServer = () => {
    if (done || !taskId) return;
    done = true;
    void client.experimental.tasks.cancelTask(taskId).catch(() => undefined);
  };
  let waitingForId: ReturnType<typeof setTimeout> | undefined;
  const giveUp = () => {
    gaveUp = true;
    if (taskId) {
      clearTimeout(waitingForId);
      cancelOnServer();
      stream.abort();
    } else {
      waitingForId ??= setTimeout(() => stream.abort(), TASK_ID_GRACE_MS);
    }
  };

  const outcome = (async () => {
    const messages = client.experimental.tasks.requestStream(
      { method: "tools/call", params },
      AnyResultSchema,
      {
        ...options.requestOptions,
        // Our own timer bounds the task; the SDK's must not drop a late answer with the task id.
        timeout: options.timeoutMs + TASK_ID_GRACE_MS,
        signal: stream.signal,
        onprogress: options.onprogress,
        task: {},
      },
    );
    try {
      for await (const message of messages) {
        switch (message.type) {
          case "taskCreated":
            taskId = message.task.taskId;
            if (gaveUp) giveUp();
            break;
          case "taskStatus":
            break;
          case "result":
            done = true;
            return message.result;
          case "error":
            throw message.error;
          default: {
            const unknown: never = message;
            throw new JunctionError(
              "mcp-invalid-response",
              `unexpected task stream message ${JSON.stringify((unknown as { type?: unknown }).type)}`,
            );
          }
        }
      }
      throw new JunctionError(
        "mcp-invalid-response",
        `the task for tool "${params.name}" ended without a result`,
      );
    } finally {
      // A task we stop following (a failed poll, a lost connection) should not run on unwatched.
      cancelOnServer();
    }
  })();

  return new Promise((resolve, reject) => {
    const { signal } = options;
    const timer = setTimeout(() => {
      reject(new McpError(ErrorCode.RequestTimeout, "task timed out"));
      giveUp();
    }, options.timeoutMs);
    const onAbort = () => {
      reject(signal?.reason);
      giveUp();
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    outcome.then(resolve, reject).finally(() => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    });
  });
}
