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
  const offered = offerCoreTools({ definitions: step.definitions, core, warn: step.warn });
  run.coreTools = offered.core;
  return offered.definitions;
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
