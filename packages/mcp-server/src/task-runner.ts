import {
  JunctionError,
  type Tool,
  type ToolContext,
  type ToolOutput,
  type ToolResult,
} from "@junction/types";
import type { AgentRunInput, AgentRunner, AgentRunOutcome } from "./agent-run.js";
import { type InputAnswer, SERVED_TASK, type ServedToolContextCarrier } from "./served-context.js";
import { type TaskRunOptions, TaskServedCall } from "./task-served-call.js";

// What a task runs, one shape for an agent tool and a plain tool: the task layer starts a run
// from a call's arguments, and the run ends with the tool's answer (or, for an agent, stops for
// approvals). Questions a run asks its client go through `ask`, and become the task's input
// requests.

/** What one leg of a task's run starts from: an agent's request or resume, or a tool's arguments. */
export type TaskRunInput = AgentRunInput | { args: unknown; answers?: InputAnswer[] | undefined };

/** Runs the legs of one served tool's tasks. */
export interface TaskRunner {
  name: string;
  /** `agent`: a durable engine may run it (`tasks.runs`); `tool`: it runs in this process. */
  kind: "agent" | "tool";
  /** The first leg's input from a call's arguments; throws `tool-input-invalid` naming the field. */
  parse(args: unknown): TaskRunInput;
  run(input: TaskRunInput, options: TaskRunOptions): Promise<AgentRunOutcome>;
}

/** An agent tool's runner as a task runner. */
export function agentTaskRunner(runner: AgentRunner): TaskRunner {
  return {
    name: runner.name,
    kind: "agent",
    parse: (args) => runner.parse(args),
    run: (input, options) => {
      if ("args" in input) throw wrongInput(runner.name);
      return runner.run(input, { signal: options.signal, onProgress: options.onProgress });
    },
  };
}

/**
 * A plain tool's runner: one leg, `execute` with the call's arguments (the tool validates them;
 * arguments that do not fit end the task with the tool's `isError` result), and a context whose
 * `servedContext()` asks through the task.
 */
export function toolTaskRunner(tool: Tool): TaskRunner {
  return {
    name: tool.name,
    kind: "tool",
    parse: (args) => ({ args: args ?? {} }),
    run: async (input, options) => {
      if (!("args" in input)) throw wrongInput(tool.name);
      const context: ServedToolContextCarrier & ToolContext = {
        signal: options.signal,
        onProgress: options.onProgress,
        [SERVED_TASK]: new TaskServedCall({ tool: tool.name, answers: input.answers, ...options }),
      };
      return { kind: "answer", result: toolResultOf(await tool.execute(input.args, context)) };
    },
  };
}

/** A tool's output as a `ToolResult` (a string is one text part). Pure. */
function toolResultOf(output: ToolOutput): ToolResult {
  if (typeof output === "string") return { content: [{ type: "text", text: output }], isError: false };
  if (Array.isArray(output)) return { content: output, isError: false };
  return output;
}

function wrongInput(tool: string): JunctionError {
  return new JunctionError(
    "invalid-argument",
    `The task of "${tool}" was given another kind of tool's input: its record does not belong to this tool.`,
  );
}
