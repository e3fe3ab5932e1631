import type { ToolDefinition, ToolResult, Warning } from "@junction/types";
import type { CoreTool, ToolRunner } from "./run-types.js";

/**
 * The run's tool runner with the current step's core tools in front of it: a call to one of them
 * is answered here (journaled like any call, so a replay does not repeat it); every other call
 * goes to `runner`.
 */
export function withCoreTools(runner: ToolRunner, current: () => ReadonlyMap<string, CoreTool>): ToolRunner {
  return {
    journalsDecisions: runner.journalsDecisions,
    decide: (call, context) =>
      current().has(call.name) ? Promise.resolve({ kind: "run" }) : runner.decide(call, context),
    execute: async (call, context) => {
      const core = current().get(call.name);
      if (!core) return runner.execute(call, context);
      const start = performance.now();
      return {
        kind: "output",
        value: core.execute(call.input, { callId: call.id, emit: context.emit }),
        durationMs: performance.now() - start,
      };
    },
    ...(runner.snapshot ? { snapshot: () => runner.snapshot!() } : {}),
    ...(runner.settled ? { settled: (call, outcome) => runner.settled!(call, outcome) } : {}),
  };
}

/**
 * The step's tool definitions with the core tools added, those whose names a user's tool already
 * has left out (with a warning through `warn`).
 */
export function offerCoreTools(options: {
  definitions: ToolDefinition[];
  core: CoreTool[];
  warn: (warning: Warning) => void;
}): { definitions: ToolDefinition[]; core: Map<string, CoreTool> } {
  const taken = new Set(options.definitions.map((definition) => definition.name));
  const core = new Map<string, CoreTool>();
  for (const tool of options.core) {
    if (taken.has(tool.definition.name)) {
      options.warn({
        code: "core-tool-shadowed",
        message: `A tool of yours is named "${tool.definition.name}", so Junction did not offer its own tool of that name this step; rename yours to let the model use Junction's.`,
      });
      continue;
    }
    core.set(tool.definition.name, tool);
  }
  if (core.size === 0) return { definitions: options.definitions, core };
  return {
    definitions: [...options.definitions, ...[...core.values()].map((tool) => tool.definition)],
    core,
  };
}

/** An error result for a core tool's bad input. */
export function coreToolError(message: string): ToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

/** A core tool's arguments as a record to read fields from (anything else reads as empty: the model's input is untrusted). */
export function coreToolInput(input: unknown): Record<string, unknown> {
  return typeof input === "object" && input !== null && !Array.isArray(input)
    ? (input as Record<string, unknown>)
    : {};
}

/** Core tools only read what the run already holds. */
export const CORE_TOOL_ANNOTATIONS = { readOnlyHint: true, openWorldHint: false } as const;
