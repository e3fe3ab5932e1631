import { JunctionError } from "@junction/types";
import {
  type McpServer,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { z } from "zod";
import { type AgentTasks, TASKS_EXTENSION } from "./agent-tasks.js";
import { toolErrorResult } from "./call-tool-result.js";
import { checkForwardable, clientCapabilitiesOf } from "./pass-through.js";
import { sdkRequestHandlers } from "./request-hook.js";
import type { InputAnswer } from "./served-context.js";

/** The params of a request about one task (`tasks/get`, `tasks/cancel`, …), other fields kept. */
export const taskParams = { params: z.object({ taskId: z.string() }).passthrough() };

/**
 * Serves the tasks extension (SEP-2663) on a 2026-07-28 server instance, which the SDK does not
 * implement: a `tools/call` of a tool that may run as a task (task support `required` or
 * `optional`) from a client that declared the extension starts a task (the server decides; a
 * `task` param is ignored), and a `required` one from a client that did not is refused with
 * -32021 naming the extension; `tasks/get`, `tasks/update` and `tasks/cancel` reach the task by
 * id, for the client that created it only, and need the extension declared too (-32021).
 * A tool in `served.beforeTask` (it asks before its task) is called through its handler there,
 * which answers with its `input_required` rounds until the tool starts its task.
 */
export function serveTasks(
  server: McpServer,
  tasks: AgentTasks,
  served: { connection: TaskOwnerScope; beforeTask: Map<string, BeforeTaskHandler> },
): void {
  const ownerOf = (context: ServerContext) => taskOwner(context, served.connection);
  const start: StartTask = ({ tool: name, args, answers, context }) => {
    const capabilities = clientCapabilitiesOf(server, context);
    return tasks
      .start(
        { tool: name, args, owner: ownerOf(context), answers },
        {
          invalidInput: "refuse",
          // Asked through the task's input requests: only what it declared it can answer.
          canAnswer: (method, tool) => checkForwardable(capabilities, method, tool),
          era: "modern",
          capabilities,
          authInfo: context.http?.authInfo,
        },
      )
      .catch((error: unknown) => {
        // Arguments that do not fit: no task (the server decides), the plain call's isError result naming the field.
        if (JunctionError.isInstance(error) && error.code === "tool-input-invalid") {
          return toolErrorResult(name, error);
        }
        throw error;
      });
  };
  interceptToolCall(server, (request, context) => {
    const name = request.params?.name;
    if (typeof name !== "string" || !tasks.serves(name)) return undefined;
    if (!declaresTasks(context)) {
      if (tasks.taskSupport(name) !== "required") return undefined;
      return Promise.reject(
        missingTasksExtension(`The tool "${name}" runs only as a task (its task support is "required")`),
      );
    }
    const args = request.params?.arguments ?? {};
    const beforeTask = served.beforeTask.get(name);
    if (beforeTask) return beforeTask(start)(args, context);
    return start({ tool: name, args, answers: undefined, context });
  });
  server.server.setRequestHandler("tasks/get", taskParams, ({ taskId }, context) => {
    requireTasks(context, "tasks/get");
    return tasks.get(taskId, ownerOf(context));
  });
  server.server.setRequestHandler("tasks/update", taskParams, async ({ taskId }, context) => {
    requireTasks(context, "tasks/update");
    await tasks.update(taskId, ownerOf(context), context.mcpReq.inputResponses ?? {});
    return {};
  });
  server.server.setRequestHandler("tasks/cancel", taskParams, async ({ taskId }, context) => {
    requireTasks(context, "tasks/cancel");
    await tasks.cancel(taskId, ownerOf(context));
    return {};
  });
}

/** Starts a task of a served tool for the client of `context`; resolves with what `tools/call` answers. */
export type StartTask = (call: {
  tool: string;
  args: unknown;
  answers: InputAnswer[] | undefined;
  context: ServerContext;
}) => Promise<unknown>;

/** The `tools/call` handler of a tool that asks before its task, given how to start its task. */
export type BeforeTaskHandler = (
  start: StartTask,
) => (args: unknown, context: ServerContext) => Promise<unknown>;

/** Refuses a tasks method from a request that did not declare the tasks extension (-32021). */
function requireTasks(context: ServerContext, method: string): void {
  if (!declaresTasks(context)) throw missingTasksExtension(`${method} is a method of the tasks extension`);
}

/** The -32021 error of a request that needs the tasks extension declared, naming it in `data`. */
function missingTasksExtension(why: string): MissingRequiredClientCapabilityError {
  return new MissingRequiredClientCapabilityError(
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } } as never,
    `${why}: declare the extension "${TASKS_EXTENSION}" in the request's _meta client capabilities.`,
  );
}

/**
 * Answers some `tools/call` requests before the SDK's own handler does: `intercept` returns the
 * result, or `undefined` to let the SDK run the call. The SDK has no public hook for a
 * `tools/call` answered with something other than the tool's result (a task): its handler,
 * installed when the first tool was registered, is wrapped where the SDK keeps it
 * (`sdkRequestHandlers`).
 */
export function interceptToolCall(
  server: McpServer,
  intercept: (
    request: { params?: Record<string, unknown> },
    context: ServerContext,
  ) => Promise<unknown> | undefined,
): void {
  const handlers = sdkRequestHandlers(server);
  const callTool = handlers?.get("tools/call");
  if (!handlers || !callTool) {
    throw new ProtocolError(
      ProtocolErrorCode.InternalError,
      "This version of @modelcontextprotocol/server keeps its request handlers elsewhere: agent tasks cannot be served.",
    );
  }
  handlers.set("tools/call", (request, context) => intercept(request, context) ?? callTool(request, context));
}

/** Whether the request declared the tasks extension in its `_meta` client capabilities. */
function declaresTasks(context: ServerContext): boolean {
  const envelope = context.mcpReq.envelope as Record<string, unknown> | undefined;
  const capabilities = envelope?.["io.modelcontextprotocol/clientCapabilities"] as
    | { extensions?: Record<string, unknown> }
    | undefined;
  return capabilities?.extensions?.[TASKS_EXTENSION] !== undefined;
}

/**
 * Who a connection's unauthenticated tasks belong to: on a 2025-11-25 HTTP session, that session
 * (`session:<random id>`, made once per SDK server instance, which is one per session); on stdio,
 * the one process at the other end of the pipes (`""`); on 2026-07-28 HTTP, which has no
 * sessions, `""`: there, without authentication, knowing a task's id is what lets a client reach
 * the task (ids are random UUIDs, never listed on that era).
 */
export interface TaskOwnerScope {
  unauthenticated: string;
}

/** Whose a task is: the authenticated client (its client id), else the connection's scope. */
export function taskOwner(context: ServerContext, connection: TaskOwnerScope): string {
  return context.http?.authInfo?.clientId ?? connection.unauthenticated;
}
