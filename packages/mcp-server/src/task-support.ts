import { JunctionError, type Tool } from "@junction/types";
import { agentRunnerOf } from "./agent-run.js";

// Whether a served tool runs as a task, in the spec's words (`execution.taskSupport`): one
// declaration for every tool, a `tool()` or an `agentTool()`.

/**
 * How a served tool may run as a task (the spec's `execution.taskSupport`): `"required"` (only
 * as a task: a client that cannot make one is refused), `"optional"` (as a task for a client
 * that asks for one, or declares the tasks extension; plainly otherwise), `"forbidden"` (never).
 */
export type TaskSupport = "required" | "optional" | "forbidden";

/** Where `withTaskSupport()` keeps a tool's declaration. */
const TASK_SUPPORT: unique symbol = Symbol.for("junction.mcp-server.task-support") as never;

const SUPPORTS: readonly TaskSupport[] = ["required", "optional", "forbidden"];

/** What `withTaskSupport()` takes besides the support. */
export interface TaskSupportOptions {
  /**
   * 2026-07-28, a client with the tasks extension: the call first runs the tool as a plain call,
   * its `servedContext()` questions `input_required` rounds, until the tool calls
   * `servedContext(context).startTask()`; the call then answers with the task, in which the tool
   * runs again from the start with those answers. Elsewhere the task starts with the call.
   * @default false
   */
  askBeforeTask?: boolean;
}

interface TaskDeclaration {
  taskSupport: TaskSupport;
  askBeforeTask: boolean;
}

/**
 * The tool, declared to run as a task when served by a server with `tasks` set: its result is
 * then fetched later (`tasks/get` on 2026-07-28, `tasks/result` on 2025-11-25), its
 * `servedContext(context).elicit()`/`sample()` questions become the task's input requests, its
 * progress the task's status message, and `tasks/cancel` aborts `context.signal`. Agent tools
 * (`agentTool()`) are `"optional"` unless declared otherwise; other tools `"forbidden"`.
 *
 * @example
 * ```ts
 * const report = withTaskSupport(
 *   tool({ name: "report", description: "Builds a long report", schema: z.object({}), execute: build }),
 *   "required",
 * );
 * createMCPServer({ name: "reports", version: "1.0.0", tasks: {}, tools: [report] });
 * ```
 */
export function withTaskSupport<T extends Tool>(
  tool: T,
  taskSupport: TaskSupport,
  options: TaskSupportOptions = {},
): T {
  if (!SUPPORTS.includes(taskSupport)) {
    throw new JunctionError(
      "invalid-argument",
      `withTaskSupport(): the task support of "${tool?.name}" must be "required", "optional" or "forbidden", not ${JSON.stringify(taskSupport)}.`,
    );
  }
  // A copy: the caller's tool keeps its own declaration (it may be served elsewhere too).
  const declared = Object.create(Object.getPrototypeOf(tool), Object.getOwnPropertyDescriptors(tool)) as T;
  const declaration: TaskDeclaration = { taskSupport, askBeforeTask: options.askBeforeTask === true };
  return Object.assign(declared, { [TASK_SUPPORT]: declaration });
}

/** A tool's task support as `withTaskSupport()` declared it, if it did. */
export function declaredTaskSupport(tool: Tool): TaskSupport | undefined {
  return declarationOf(tool)?.taskSupport;
}

/** Whether the tool asks its first questions before its task (`askBeforeTask`). */
export function asksBeforeTask(tool: Tool): boolean {
  return declarationOf(tool)?.askBeforeTask === true;
}

function declarationOf(tool: Tool): TaskDeclaration | undefined {
  return (tool as { [TASK_SUPPORT]?: TaskDeclaration })[TASK_SUPPORT];
}

/** A tool's task support: as declared, else `"optional"` for an agent tool and `"forbidden"` for others. */
export function taskSupportOf(tool: Tool): TaskSupport {
  return declaredTaskSupport(tool) ?? (agentRunnerOf(tool) ? "optional" : "forbidden");
}
