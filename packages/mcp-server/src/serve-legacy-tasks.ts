import {
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { z } from "zod";
import type { AgentTasks, AskClient, LegacyTaskView } from "./agent-tasks.js";
import { legacyTaskResult } from "./legacy-task-result.js";
import { capabilityFor, clientCapabilitiesOf } from "./pass-through.js";
import { interceptToolCall, type TaskOwnerScope, taskOwner, taskParams } from "./serve-tasks.js";

const listParams = { params: z.object({ cursor: z.string().optional() }).passthrough() };

/** Tasks a `tasks/list` page holds. */
const PAGE_SIZE = 100;

/**
 * Serves 2025-11-25 tasks on a 2025-era server instance (the SDK v2 keeps the wire types but has
 * no task runtime): the server declares `capabilities.tasks` (list, cancel, task-augmented
 * `tools/call`); a `tools/call` of a tool that may run as a task with `task` in its params (a
 * `required` one must have it: -32601 without) starts the run and
 * answers with `{ task }` at once; `tasks/get` and `tasks/list` show tasks, `tasks/cancel` aborts
 * the run, and `tasks/result` waits for the end and gives the `CallToolResult`. While it waits, a
 * pending approval, or a request of an MCP server the agent uses, is sent to its client as a
 * request related to the task (`_meta["io.modelcontextprotocol/related-task"]`), as the spec has
 * it for `input_required`. A task belongs to the client that created it: the authenticated
 * client, else the session (HTTP) or the connection (stdio) it was created on; `tasks/list`
 * lists only the requestor's tasks.
 */
export function serveLegacyTasks(server: McpServer, tasks: AgentTasks, connection: TaskOwnerScope): void {
  const ownerOf = (context: ServerContext) => taskOwner(context, connection);
  server.server.registerCapabilities({
    tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
  } as never);
  interceptToolCall(server, (request, context) => {
    const name = request.params?.name;
    const task = request.params?.task;
    if (typeof name !== "string") return undefined;
    if (typeof task !== "object" || task === null) {
      if (tasks.taskSupport(name) !== "required") return undefined;
      // The spec: a tool whose execution.taskSupport is "required" is called as a task, else -32601.
      return Promise.reject(
        new ProtocolError(
          ProtocolErrorCode.MethodNotFound,
          `The tool "${name}" runs only as a task (its execution.taskSupport is "required"): call it with "task" in the params.`,
        ),
      );
    }
    if (!tasks.serves(name)) {
      // A tool that does not declare execution.taskSupport forbids tasks: the spec's answer is -32601.
      return Promise.reject(
        new ProtocolError(
          ProtocolErrorCode.MethodNotFound,
          `The tool "${name}" cannot be called as a task (its execution.taskSupport is absent, which means "forbidden"): call it without "task".`,
        ),
      );
    }
    const ttl = (task as { ttl?: unknown }).ttl;
    return tasks
      .create({
        tool: name,
        args: request.params?.arguments ?? {},
        owner: ownerOf(context),
        // Upstream requests wait for the client's tasks/result, which asks them then.
        client: {
          invalidInput: "end-task",
          notify: notifyThrough(server),
          era: "legacy",
          capabilities: clientCapabilitiesOf(server, context),
          authInfo: context.http?.authInfo,
        },
        ttlMs: typeof ttl === "number" ? ttl : undefined,
      })
      .then((record) => ({ task: tasks.legacyView(record) }));
  });
  server.server.setRequestHandler("tasks/get", taskParams, async ({ taskId }, context) =>
    tasks.legacyView(await tasks.current(taskId, ownerOf(context))),
  );
  server.server.setRequestHandler("tasks/list", listParams, async ({ cursor }, context) => {
    const all = await tasks.list(ownerOf(context));
    const start = cursor === undefined ? 0 : Number(cursor);
    if (!Number.isInteger(start) || start < 0 || start > all.length) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid cursor "${cursor}".`);
    }
    const page = all.slice(start, start + PAGE_SIZE).map((record) => tasks.legacyView(record));
    const next = start + PAGE_SIZE;
    return { tasks: page, ...(next < all.length ? { nextCursor: String(next) } : {}) };
  });
  server.server.setRequestHandler("tasks/cancel", taskParams, async ({ taskId }, context) => {
    const owner = ownerOf(context);
    const record = await tasks.current(taskId, owner);
    if (record.status === "completed" || record.status === "failed" || record.status === "cancelled") {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Cannot cancel task "${taskId}": it already ended (${tasks.legacyView(record).status}).`,
      );
    }
    return tasks.legacyView(await tasks.cancel(taskId, owner));
  });
  server.server.setRequestHandler("tasks/result", taskParams, ({ taskId }, context) =>
    legacyTaskResult(tasks, {
      taskId,
      owner: ownerOf(context),
      ask: askThrough(server, context, taskId),
      signal: context.mcpReq.signal,
    }),
  );
}

/**
 * Sends `notifications/tasks/status` on the session's own channel (stdio, or the Streamable HTTP
 * session's GET stream: a client that opened none is not told, as the transport drops it), while
 * the session lasts.
 */
function notifyThrough(server: McpServer): (task: LegacyTaskView) => boolean {
  return (task) => {
    if (!server.isConnected()) return false;
    // The notification is a courtesy (clients poll tasks/get anyway): a failed send is not the task's failure.
    server.server
      .notification({ method: "notifications/tasks/status", params: task } as never)
      .catch(() => undefined);
    return true;
  };
}

/**
 * Asks the client of a `tasks/result` request, on that request's stream: an elicitation or a
 * sampling request it declared at `initialize` it can answer; otherwise an error naming what it
 * lacks.
 */
function askThrough(server: McpServer, context: ServerContext, taskId: string): AskClient {
  return (method, params) => {
    const capability = capabilityFor(method);
    if (clientCapabilitiesOf(server, context)?.[capability] === undefined) {
      return Promise.reject(
        new ProtocolError(
          ProtocolErrorCode.InvalidRequest,
          `The task "${taskId}" needs its client's answer to ${method} (an approval, or a request of an MCP server the agent uses), and this client declared no ${capability} capability at initialize: it cannot be asked. Call tasks/result from a client that declares it, or cancel the task with tasks/cancel.`,
        ),
      );
    }
    const options = { signal: context.mcpReq.signal };
    if (method === "roots/list") return context.mcpReq.send({ method: "roots/list" }, options);
    return method === "elicitation/create"
      ? context.mcpReq.elicitInput(params as never, options)
      : context.mcpReq.requestSampling(params as never, options);
  };
}
