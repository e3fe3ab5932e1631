import { errorMessage, type ToolOutput, type Warning } from "@junction/types";
import { abortError, raceAbort } from "./abort.js";
import {
  type ApprovalFunction,
  type ApprovalRequest,
  type NormalizedDecision,
  normalizeDecision,
} from "./approval.js";
import { SEARCH_TOOLS } from "./core-tool.js";
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
  /**
   * Told of a call to a tool the step did not offer (a deferred tool the model knew by name, from
   * an earlier turn, a resumed run or a system prompt): the Agent loads it, so its definition is
   * sent from the next step. The call itself goes through the same checks as any other.
   */
  onDeferredCall?: (name: string) => void;
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
    privacy: {
      reads: (name, plan) => {
        const registered = plan.tools.get(name);
        return registered !== undefined && !isOpenWorld(registered.tool.annotations);
      },
      record: (callId) => {
        options.ledger.readPrivate.add(callId);
      },
    },
  };
}

function check(
  options: AgentToolRunnerOptions,
  call: ToolCallRequestPart,
  context: ToolExecutorContext<RegisteredTool>,
): CheckedCall {
  const { plan } = context;
  const registered = plan.tools.get(call.name);
  if (!registered) return { ok: false, refusal: notFound(call.name, plan) };
  // A deferred tool called by its real name runs like any other; from the next step on the model
  // also has its definition.
  const offered = plan.offered.some((definition) => definition.name === call.name);
  if (!offered) options.onDeferredCall?.(call.name);
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
        message:
          `Invalid arguments for tool "${call.name}":\n${checked.message}\nCall it again with arguments that match its input schema` +
          (offered ? "." : " (its definition is sent from your next step)."),
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
  // Awaited, not returned: a promise returned from an async function costs two more turns.
  return await context.limit(async (): Promise<ToolCallExecution> => {
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

// Past this many, a not-found answer lists the first ones and how many more.
const MAX_LISTED_TOOLS = 50;

/**
 * The refusal of a call to a name the run has no tool of: the names offered this step (at most 50
 * of them), and, while tools are deferred, that `search_tools` finds the others by what they do.
 */
function notFound(
  name: string,
  plan: ToolExecutorContext<RegisteredTool>["plan"],
): Extract<GateEntry, { kind: "refuse" }> {
  const refusal = (message: string) => ({ kind: "refuse" as const, outcome: "not-found" as const, message });
  if (!plan.coreTools.has(SEARCH_TOOLS)) {
    const available = [...plan.tools.keys()];
    return refusal(
      `There is no tool named "${name}". ` +
        (available.length > 0 ? `Available tools: ${listOf(available)}.` : "No tools are available."),
    );
  }
  const offered = plan.offered.map((definition) => definition.name);
  return refusal(
    `There is no tool named "${name}", loaded or deferred. Search for the tool you need with ${SEARCH_TOOLS} ` +
      `(by what you want to do), then call it by the name the search gives. Tools offered now: ${listOf(offered)}.`,
  );
}

/** Names, the first {@link MAX_LISTED_TOOLS} of them, then how many more. */
function listOf(names: readonly string[]): string {
  const more = names.length - MAX_LISTED_TOOLS;
  return `${names.slice(0, MAX_LISTED_TOOLS).join(", ")}${more > 0 ? ` and ${more} more` : ""}`;
}

function quoteList(names: string[]): string {
  const quoted = names.slice(0, 5).map((name) => `"${name}"`);
  if (names.length > 5) quoted.push(`${names.length - 5} more`);
  return quoted.join(", ");
}
