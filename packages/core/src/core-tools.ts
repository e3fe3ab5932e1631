import type { ToolDefinition, ToolResult, Warning } from "@junction/types";
import type { CoreTool, ToolRunner } from "./run-types.js";

/** The name of the tool the model finds deferred tools with. */
export const SEARCH_TOOLS = "search_tools";

/** The name of the tool the model runs a program with (code mode). */
export const RUN_PROGRAM = "run_program";

/** The name of the tool the model reads the rest of a cut result with. */
export const READ_TOOL_RESULT = "read_tool_result";

/**
 * The names of the tools Junction itself offers the model. They only read what the run already
 * holds (tool definitions, results in the conversation), so they run without the approval policy,
 * their results are not private data for the exfiltration guard, and an MCP server cannot take
 * their names (see `ToolRegistry`).
 */
export const CORE_TOOL_NAMES: ReadonlySet<string> = new Set([SEARCH_TOOLS, READ_TOOL_RESULT, RUN_PROGRAM]);

/**
 * The run's tool runner with the step's core tools (`context.plan.coreTools`) in front of it: a
 * call to one of them is answered here (journaled like any call, so a replay does not repeat it);
 * every other call goes to `runner`.
 */
export function withCoreTools(runner: ToolRunner): ToolRunner {
  return {
    journalsDecisions: runner.journalsDecisions,
    decide: (call, context) =>
      context.plan.coreTools.has(call.name) ? Promise.resolve({ kind: "run" }) : runner.decide(call, context),
    execute: async (call, context) => {
      const core = context.plan.coreTools.get(call.name);
      if (!core) return runner.execute(call, context);
      const start = performance.now();
      return {
        kind: "output",
        value: await core.execute(call.input, {
          callId: call.id,
          emit: context.emit,
          signal: context.signal,
        }),
        durationMs: performance.now() - start,
      };
    },
    ...(runner.snapshot ? { snapshot: (plan) => runner.snapshot!(plan) } : {}),
    ...(runner.settled ? { settled: (call, outcome, plan) => runner.settled!(call, outcome, plan) } : {}),
    ...(runner.privacy ? { privacy: runner.privacy } : {}),
  };
}

/**
 * The step's tool definitions with the core tools added: those whose names a user's tool already
 * has are left out (with a warning through `warn`). Within `maxTools`, Junction's own tools count:
 * when they would take the request over it, the last definitions make room (not those `keep`
 * says to keep, such as the answer tool), with a warning naming them.
 */
export function offerCoreTools(options: {
  definitions: ToolDefinition[];
  core: CoreTool[];
  warn: (warning: Warning) => void;
  maxTools?: number;
  keep?: (definition: ToolDefinition) => boolean;
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
  const definitions = withRoomFor(core, options);
  return {
    definitions: [...definitions, ...[...core.values()].map((tool) => tool.definition)],
    core,
  };
}

/** `definitions` with the last ones left out, as many as the core tools need to fit `maxTools`. */
function withRoomFor(
  core: ReadonlyMap<string, CoreTool>,
  options: {
    definitions: ToolDefinition[];
    warn: (warning: Warning) => void;
    maxTools?: number;
    keep?: (definition: ToolDefinition) => boolean;
  },
): ToolDefinition[] {
  const over = options.definitions.length + core.size - (options.maxTools ?? Number.POSITIVE_INFINITY);
  if (over <= 0) return options.definitions;
  const kept = [...options.definitions];
  const left: string[] = [];
  for (let index = kept.length - 1; index >= 0 && left.length < over; index--) {
    if (options.keep?.(kept[index]!)) continue;
    left.unshift(kept[index]!.name);
    kept.splice(index, 1);
  }
  if (left.length > 0) {
    const quoted = (names: Iterable<string>) => [...names].map((name) => JSON.stringify(name)).join(", ");
    options.warn({
      code: "tool-list-truncated",
      message: `Junction's own tools (${quoted(core.keys())}) count towards toolLimits.maxTools (${options.maxTools}), so the model was not offered ${quoted(left)} while they are offered.`,
    });
  }
  return kept;
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
