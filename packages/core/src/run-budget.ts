import type { Message, ModelRequest, ToolDefinition, Warning } from "@junction/types";
import { offerCoreTools } from "./core-tools.js";
import type { CoreTool, Run, StepTools } from "./run-types.js";
import { contextWindowOf, type RequestSize, RequestSizeFold } from "./token-estimate.js";
import { ModelViewFolds, readToolResultTool, toolResultBudget } from "./tool-result-budget.js";

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
  if (foldsOf(run).view.hasCutResults(step.conversation, budget))
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
  const { provider, model } = run.options.model;
  return foldsOf(run).requestSize.size({
    messages: request.messages,
    ...(request.system !== undefined ? { system: request.system } : {}),
    ...(request.tools ? { tools: request.tools } : {}),
    contextWindow: contextWindowOf(provider, model),
  });
}

/** A run's scans of its conversation, kept across its steps so each step scans only what it appended. */
export interface RunFolds {
  /** The model's view of the conversation (media limits, tool-result budget), and whether a result is cut. */
  view: ModelViewFolds;
  /** The request's size. */
  requestSize: RequestSizeFold;
}

/** One entry per run (not per message), gone with the run. */
const runFolds = new WeakMap<Run, RunFolds>();

/** The scans `run` keeps of its conversation. */
export function foldsOf(run: Run): RunFolds {
  let folds = runFolds.get(run);
  if (!folds) {
    folds = { view: new ModelViewFolds(), requestSize: new RequestSizeFold() };
    runFolds.set(run, folds);
  }
  return folds;
}
