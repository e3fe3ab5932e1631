import type { ToolDefinition, Warning } from "@junction/types";
import type { CoreTool } from "./core-tool.js";
import type { ToolCallExecution, ToolCallRequestPart, ToolExecutorContext, ToolRunner } from "./run-types.js";

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
    execute: (call, context) => {
      const core = context.plan.coreTools.get(call.name);
      // Any other call is the runner's, its promise handed on as it is.
      return core ? executeCoreTool(core, call, context) : runner.execute(call, context);
    },
    ...(runner.snapshot ? { snapshot: (plan) => runner.snapshot!(plan) } : {}),
    ...(runner.settled ? { settled: (call, outcome, plan) => runner.settled!(call, outcome, plan) } : {}),
    ...(runner.privacy ? { privacy: runner.privacy } : {}),
  };
}

/** A call of one of Junction's own tools, timed. */
async function executeCoreTool(
  core: CoreTool,
  call: ToolCallRequestPart,
  context: ToolExecutorContext,
): Promise<ToolCallExecution> {
  const start = performance.now();
  return {
    kind: "output",
    value: await core.execute(call.input, { callId: call.id, emit: context.emit, signal: context.signal }),
    durationMs: performance.now() - start,
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
