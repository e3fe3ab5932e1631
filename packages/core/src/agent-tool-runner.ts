import { errorMessage, type ToolOutput, type Warning } from "@junction/types";
import { abortError, raceAbort } from "./abort.js";
import {
  type ApprovalFunction,
  type ApprovalRequest,
  type NormalizedDecision,
  normalizeDecision,
} from "./approval.js";
import { type CallLedger, type ExfiltrationGuard, isOpenWorld } from "./exfiltration-guard.js";
import { inputValidatorFor } from "./input-validation.js";
import { deniedMessage, type GateEntry } from "./run-journal.js";
import { snapshotTools } from "./run-state.js";
import type { ToolCallExecution, ToolCallRequestPart, ToolExecutorContext, ToolRunner } from "./run-types.js";
import { getZodToolInternals } from "./tool.js";
import type { RegisteredTool } from "./tool-registry.js";

/**
 * What the Agent gives its tool runner for one run. The step's tools and the private data its
 * conversation holds come with each call, in `context.plan` (`StepPlan<RegisteredTool>`).
 */
export interface AgentToolRunnerOptions {
  approval?: ApprovalFunction;
  /** Which open-world tools the exfiltration guard covers. */
  guard: ExfiltrationGuard;
  /** Where the runner records which calls never ran and which read private data. */
  ledger: CallLedger;
  /** Reports `warning` once per `key` for as long as the Agent lives. */
  warnOnce: (key: object, warning: Warning, warn: (warning: Warning) => void) => void;
}

/** A call that found its tool and has valid arguments. */
type CheckedCall =
  | { ok: true; registered: RegisteredTool; input: unknown }
  | { ok: false; refusal: Extract<GateEntry, { kind: "refuse" }> };

/**
 * The Agent's way of running calls: look the tool up, validate the arguments, ask the approval
 * policy (and the exfiltration guard) in `decide`; run it within the concurrency bound in
 * `execute`. Every failure becomes an error result the model can act on; only an abort throws.
 */
export function createAgentToolRunner(options: AgentToolRunnerOptions): ToolRunner<RegisteredTool> {
  let warnedUnguarded = false;
  const firstUnguarded = () => {
    if (warnedUnguarded) return false;
    warnedUnguarded = true;
    return true;
  };
  return {
    journalsDecisions: options.approval !== undefined,
    decide: (call, context) => decide({ options, call, context, firstUnguarded }),
    execute: (call, context) => execute(options, call, context),
    snapshot: (plan) => snapshotTools(plan.tools.values()),
    settled: (call, outcome, plan) => {
      if (outcome !== "success" && outcome !== "error") options.ledger.notRun.add(call.id);
      else if (!isOpenWorld(plan.tools.get(call.name)?.tool.annotations)) {
        options.ledger.readPrivate.add(call.id);
      }
    },
  };
}

function check(
  options: AgentToolRunnerOptions,
  call: ToolCallRequestPart,
  context: ToolExecutorContext<RegisteredTool>,
): CheckedCall {
  const tools = context.plan.tools;
  const registered = tools.get(call.name);
  if (!registered) {
    const available = [...tools.keys()];
    return {
      ok: false,
      refusal: {
        kind: "refuse",
        outcome: "not-found",
        message:
          `There is no tool named "${call.name}". ` +
          (available.length > 0 ? `Available tools: ${available.join(", ")}.` : "No tools are available."),
      },
    };
  }
  const { tool, source } = registered;
  const validator = inputValidatorFor(tool);
  if (validator.warning) options.warnOnce(tool, validator.warning, context.warn);
  const checked = validator.check(call.input);
  if (!checked.ok) {
    return {
      ok: false,
      refusal: {
        kind: "refuse",
        outcome: "invalid-input",
        ...(source ? { source } : {}),
        message: `Invalid arguments for tool "${call.name}":\n${checked.message}\nCall it again with arguments that match its input schema.`,
      },
    };
  }
  return { ok: true, registered, input: validator.usesParsedInput ? checked.input : call.input };
}

async function decide(parts: {
  options: AgentToolRunnerOptions;
  call: ToolCallRequestPart;
  context: ToolExecutorContext<RegisteredTool>;
  firstUnguarded: () => boolean;
}): Promise<GateEntry> {
  const { options, call, context } = parts;
  const checked = check(options, call, context);
  if (!checked.ok) return checked.refusal;
  const { registered, input } = checked;
  const { tool, source } = registered;
  const sourceField = source ? { source } : {};
  const readFrom = options.guard.covers(call.name, registered) ? [...context.plan.privateDataFrom] : [];
  const guarded = readFrom.length > 0;
  if (guarded && !options.approval && parts.firstUnguarded()) {
    context.warn({
      code: "exfiltration-unguarded",
      message:
        `Tool "${call.name}" can reach outside (open world) and runs after the conversation read data with ${quoteList(readFrom)}; ` +
        "no approval policy is configured, so nothing asks. Set `approval` (any policy) to have such calls asked.",
    });
  }
  if (!options.approval) return { kind: "run" };
  const request: ApprovalRequest = {
    id: call.id,
    name: call.name,
    input,
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
    ...sourceField,
    ...(guarded ? { privateDataFrom: readFrom } : {}),
  };
  let decision: NormalizedDecision;
  try {
    decision = normalizeDecision(await raceAbort(Promise.resolve(options.approval(request)), context.signal));
  } catch (error) {
    if (context.signal.aborted) throw abortError(context.signal);
    decision = { kind: "deny", reason: `The approval policy failed: ${errorMessage(error)}` };
  }
  // Denied stays denied; an approval the policy gave on its own becomes a question.
  if (guarded && decision.kind === "approve" && !decision.byUser) decision = { kind: "ask" };
  if (decision.kind === "approve") return { kind: "run" };
  if (decision.kind === "deny") {
    return {
      kind: "refuse",
      outcome: "denied",
      ...sourceField,
      message: deniedMessage(call.name, decision.reason),
    };
  }
  const reason = guarded
    ? `"${call.name}" can reach outside (open world), and the conversation already holds data read with ${quoteList(readFrom)}; ` +
      "approve only if that data may go where this call sends it."
    : undefined;
  return { kind: "ask", input, callInput: call.input, ...sourceField, ...(reason ? { reason } : {}) };
}

async function execute(
  options: AgentToolRunnerOptions,
  call: ToolCallRequestPart,
  context: ToolExecutorContext<RegisteredTool>,
): Promise<ToolCallExecution> {
  const checked = check(options, call, context);
  if (!checked.ok) {
    // The tool went away (or changed) between the decision and the run.
    const { outcome, message, source } = checked.refusal;
    return { kind: "error", outcome, message, durationMs: 0, ...(source ? { source } : {}) };
  }
  const { registered, input } = checked;
  const { tool, source } = registered;
  const sourceField = source ? { source } : {};
  const internals = getZodToolInternals(tool);
  return context.limit(async (): Promise<ToolCallExecution> => {
    if (context.signal.aborted) throw abortError(context.signal);
    const start = performance.now();
    const toolContext = {
      signal: context.signal,
      onProgress: context.onProgress,
      ...(context.idempotencyKey ? { idempotencyKey: context.idempotencyKey } : {}),
    };
    let value: ToolOutput;
    try {
      // Not raced against the signal: the tool has it, and waiting for it to stop means nothing
      // outlives the run.
      value = await (internals ? internals.execute(input, toolContext) : tool.execute(input, toolContext));
    } catch (error) {
      if (context.signal.aborted) throw abortError(context.signal);
      return {
        kind: "error",
        outcome: "error",
        durationMs: performance.now() - start,
        ...sourceField,
        message: `Tool "${call.name}" failed: ${errorMessage(error)}`,
      };
    }
    return { kind: "output", value, durationMs: performance.now() - start, ...sourceField };
  });
}

function quoteList(names: string[]): string {
  const quoted = names.slice(0, 5).map((name) => `"${name}"`);
  if (names.length > 5) quoted.push(`${names.length - 5} more`);
  return quoted.join(", ");
}
