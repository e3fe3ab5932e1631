import type { Message, ModelRequest, ToolDefinition, Warning } from "@junction/types";
import type { CoreTool } from "./core-tool.js";
import { offerCoreTools } from "./run-core-tools.js";
import type { Run, StepTools } from "./run-types.js";
import { contextWindowOf, type RequestSize } from "./token-estimate.js";
import { readToolResultTool, toolResultBudget } from "./tool-result-budget.js";

/**
 * The tools a step offers: `prepareStep`'s, plus Junction's own where they apply: the read tool
 * once a result in the conversation is cut for this model, and the caller's core tools (the
 * Agent's tool search); the core tools by name. Without a tool runner nothing is added: nobody
 * could answer the calls.
 */
export function stepTools(
  run: Run,
  step: {
    prepared: StepTools;
    definitions: ToolDefinition[];
    conversation: Message[];
    warn: (warning: Warning) => void;
  },
): { definitions: ToolDefinition[]; core: ReadonlyMap<string, CoreTool> } {
  const { options } = run;
  if (!options.tools.runner) return { definitions: step.definitions, core: new Map() };
  const core: CoreTool[] = [...(step.prepared.coreTools ?? [])];
  const budget = toolResultBudget(contextWindowOf(options.model.provider, options.model.model));
  if (run.folds.view.hasCutResults(step.conversation, budget))
    core.push(readToolResultTool(step.conversation, budget));
  const offered = offerCoreTools({
    definitions: step.definitions,
    core,
    warn: (warning) => warnOncePerRun(run, warning, step.warn),
    ...(options.tools.maxTools !== undefined ? { maxTools: options.tools.maxTools } : {}),
    ...(options.output ? { keep: (definition) => options.output!.isAnswerCall(definition) } : {}),
  });
  return offered;
}

/** A warning about the core tools once per run: the same setup gives the same one every step. */
function warnOncePerRun(run: Run, warning: Warning, warn: (warning: Warning) => void): void {
  if (run.coreToolWarnings.has(warning.message)) return;
  run.coreToolWarnings.add(warning.message);
  warn(warning);
}

/** The size of a model request by Junction's estimator, against the model's window. */
export function requestSizeOf(run: Run, request: ModelRequest): RequestSize {
  const { provider, model } = run.options.model;
  return run.folds.requestSize.size({
    messages: request.messages,
    ...(request.system !== undefined ? { system: request.system } : {}),
    ...(request.tools ? { tools: request.tools } : {}),
    contextWindow: contextWindowOf(provider, model),
  });
}
