import type { ToolOutput, Warning } from "@junction/types";
import {
  type ApprovalFunction,
  type ApprovalRequest,
  type NormalizedDecision,
  normalizeDecision,
} from "./approval.js";
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

/**
 * The Agent's way of running a call: look the tool up, validate the arguments, ask the
 * approval policy, then execute within the concurrency bound. Every failure becomes an error
 * result the model can act on; only an abort throws.
 */
export function createAgentToolExecutor(options: {
  tools: () => Map<string, RegisteredTool>;
  approval?: ApprovalFunction;
  warnOnce: (key: object, warning: Warning) => void;
}): ToolExecutor {
  return async (call, context) => {
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

    if (options.approval) {
      const request: ApprovalRequest = {
        id: call.id,
        name: call.name,
        input,
        ...(tool.annotations ? { annotations: tool.annotations } : {}),
        ...sourceField,
      };
      let decision: NormalizedDecision;
      try {
        decision = normalizeDecision(
          await raceAbort(Promise.resolve(options.approval(request)), context.signal),
        );
      } catch (error) {
        if (context.signal.aborted) throw abortError(context.signal);
        decision = { kind: "deny", reason: `The approval policy failed: ${(error as Error).message}` };
      }
      if (decision.kind === "ask") decision = await askUser(call, input, context);
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
          message: `Tool "${call.name}" failed: ${error instanceof Error ? error.message : String(error)}`,
        };
      }
      return { kind: "output", value, durationMs: performance.now() - start, ...sourceField };
    });
  };
}

function askUser(
  call: { id: string; name: string },
  input: unknown,
  context: ToolExecutorContext,
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
    approve: () => once({ kind: "approve" }),
    deny: (reason?: string) => once({ kind: "deny", ...(reason ? { reason } : {}) }),
  });
  return raceAbort(answered, context.signal);
}
