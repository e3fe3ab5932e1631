import type { ToolOutput, Warning } from "@junction/types";
import { errorMessage } from "@junction/types";
import {
  type ApprovalFunction,
  type ApprovalRequest,
  type NormalizedDecision,
  normalizeDecision,
} from "./approval.js";
import { type CallLedger, type ExfiltrationGuard, isOpenWorld } from "./exfiltration-guard.js";
import { inputValidatorFor } from "./input-validation.js";
import {
  abortError,
  raceAbort,
  type ToolCallExecution,
  type ToolExecutor,
  type ToolExecutorContext,
} from "./run-loop.js";
import { getZodToolInternals } from "./tool.js";
import type { RegisteredTool } from "./tool-registry.js";

/** What the Agent gives its executor for one run. */
export interface AgentToolExecutorOptions {
  /** The tools of the current step. */
  tools: () => Map<string, RegisteredTool>;
  approval?: ApprovalFunction;
  /** Which open-world tools the exfiltration guard covers. */
  guard: ExfiltrationGuard;
  /** The closed-world tools whose results the model has seen so far (the current step's history). */
  privateDataFrom: () => string[];
  /** Where the executor records which calls never ran and which read private data. */
  ledger: CallLedger;
  warnOnce: (key: object, warning: Warning) => void;
  warn: (warning: Warning) => void;
}

/**
 * The Agent's way of running a call: look the tool up, validate the arguments, ask the
 * approval policy (and the exfiltration guard), then execute within the concurrency bound.
 * Every failure becomes an error result the model can act on; only an abort throws.
 */
export function createAgentToolExecutor(options: AgentToolExecutorOptions): ToolExecutor {
  let warnedUnguarded = false;
  return async (call, context) => {
    const execution = await decideAndRun(options, call, context, () => {
      if (warnedUnguarded) return false;
      warnedUnguarded = true;
      return true;
    });
    if (execution.kind === "error" && execution.outcome !== "error") {
      options.ledger.notRun.add(call.id);
    } else if (!isOpenWorld(options.tools().get(call.name)?.tool.annotations)) {
      options.ledger.readPrivate.add(call.id);
    }
    return execution;
  };
}

async function decideAndRun(
  options: AgentToolExecutorOptions,
  call: { id: string; name: string; input: unknown },
  context: ToolExecutorContext,
  firstUnguarded: () => boolean,
): Promise<ToolCallExecution> {
  const tools = options.tools();
  const registered = tools.get(call.name);
  if (!registered) {
    const available = [...tools.keys()];
    return {
      kind: "error",
      outcome: "not-found",
      durationMs: 0,
      message:
        `There is no tool named "${call.name}". ` +
        (available.length > 0 ? `Available tools: ${available.join(", ")}.` : "No tools are available."),
    };
  }
  const { tool, source } = registered;
  const sourceField = source ? { source } : {};
  const validator = inputValidatorFor(tool);
  if (validator.warning) options.warnOnce(tool, validator.warning);
  const checked = validator.check(call.input);
  if (!checked.ok) {
    return {
      kind: "error",
      outcome: "invalid-input",
      durationMs: 0,
      ...sourceField,
      message: `Invalid arguments for tool "${call.name}":\n${checked.message}\nCall it again with arguments that match its input schema.`,
    };
  }
  const input = validator.usesParsedInput ? checked.input : call.input;

  const readFrom = options.guard.covers(call.name, registered) ? options.privateDataFrom() : [];
  const guarded = readFrom.length > 0;
  if (guarded && !options.approval && firstUnguarded()) {
    options.warn({
      code: "exfiltration-unguarded",
      message:
        `Tool "${call.name}" can reach outside (open world) and runs after the conversation read data with ${quoteList(readFrom)}; ` +
        "no approval policy is configured, so nothing asks. Set `approval` (any policy) to have such calls asked.",
    });
  }
  if (options.approval) {
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
      decision = normalizeDecision(
        await raceAbort(Promise.resolve(options.approval(request)), context.signal),
      );
    } catch (error) {
      if (context.signal.aborted) throw abortError(context.signal);
      decision = { kind: "deny", reason: `The approval policy failed: ${errorMessage(error)}` };
    }
    // Denied stays denied; an approval the policy gave on its own becomes a question.
    if (guarded && decision.kind === "approve" && !decision.byUser) decision = { kind: "ask" };
    if (decision.kind === "ask") {
      const reason = guarded
        ? `"${call.name}" can reach outside (open world), and the conversation already holds data read with ${quoteList(readFrom)}; ` +
          "approve only if that data may go where this call sends it."
        : undefined;
      decision = await askUser(call, input, context, reason);
    }
    if (decision.kind === "deny") {
      return {
        kind: "error",
        outcome: "denied",
        durationMs: 0,
        ...sourceField,
        message:
          `The call to tool "${call.name}" was denied${decision.reason ? `: ${decision.reason}` : "."} ` +
          "Do not call it again unless the user asks.",
      };
    }
  }

  const internals = getZodToolInternals(tool);
  return context.limit(async (): Promise<ToolCallExecution> => {
    if (context.signal.aborted) throw abortError(context.signal);
    const start = performance.now();
    const toolContext = { signal: context.signal, onProgress: context.onProgress };
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

function askUser(
  call: { id: string; name: string },
  input: unknown,
  context: ToolExecutorContext,
  reason: string | undefined,
): Promise<NormalizedDecision> {
  let answer!: (decision: NormalizedDecision) => void;
  const answered = new Promise<NormalizedDecision>((resolve) => {
    answer = resolve;
  });
  let settled = false;
  const once = (decision: NormalizedDecision) => {
    if (settled) return;
    settled = true;
    answer(decision);
  };
  context.emit({
    type: "tool-approval-request",
    id: call.id,
    name: call.name,
    input,
    ...(reason ? { reason } : {}),
    approve: () => once({ kind: "approve" }),
    deny: (reason?: string) => once({ kind: "deny", ...(reason ? { reason } : {}) }),
  });
  return raceAbort(answered, context.signal);
}
