import type { ModelRequest, ToolDefinition, Warning } from "@junction/types";
import { offerCoreTools } from "./core-tools.js";
import type { CoreTool, Run } from "./run-types.js";
import { contextWindowOf, estimateRequestSize, type RequestSize } from "./token-estimate.js";
import { hasCutResults, readToolResultTool, toolResultBudget } from "./tool-result-budget.js";

/**
 * The tools a step offers: `prepareStep`'s, plus Junction's own where they apply: the read tool
 * once a result in the conversation is cut for this model, and the caller's core tools (the
 * Agent's tool search). Sets `run.coreTools` for the step. Without a tool runner nothing is added:
 * nobody could answer the calls.
 */
export function stepTools(
  run: Run,
  step: { stepNumber: number; definitions: ToolDefinition[]; warn: (warning: Warning) => void },
): ToolDefinition[] {
  const { options } = run;
  if (!options.tools) {
    run.coreTools = new Map();
    return step.definitions;
  }
  const core: CoreTool[] = [...(options.coreTools?.(step.stepNumber) ?? [])];
  const budget = toolResultBudget(contextWindowOf(options.provider, options.model));
  if (hasCutResults(options.history, budget)) core.push(readToolResultTool(options.history, budget));
  const offered = offerCoreTools({
    definitions: step.definitions,
    core,
    warn: (warning) => warnOncePerRun(run, warning, step.warn),
    ...(options.maxTools !== undefined ? { maxTools: options.maxTools } : {}),
    ...(options.output ? { keep: (definition) => options.output!.isAnswerCall(definition) } : {}),
  });
  run.coreTools = offered.core;
  return offered.definitions;
}

/** The warnings about the core tools each run gave: the same setup gives the same one every step. */
const warnedCoreTools = new WeakMap<Run, Set<string>>();

function warnOncePerRun(run: Run, warning: Warning, warn: (warning: Warning) => void): void {
  const given = warnedCoreTools.get(run) ?? new Set<string>();
  warnedCoreTools.set(run, given);
  if (given.has(warning.message)) return;
  given.add(warning.message);
  warn(warning);
}

/** The size of a model request by Junction's estimator, against the model's window. */
export function requestSizeOf(run: Run, request: ModelRequest): RequestSize {
  const { provider, model } = run.options;
  return estimateRequestSize({
    messages: request.messages,
    ...(request.system !== undefined ? { system: request.system } : {}),
    ...(request.tools ? { tools: request.tools } : {}),
    contextWindow: contextWindowOf(provider, model),
  });
}
