import type { AgentResult, AgentStoppedResult } from "./agent-events.js";
import { type Durability, InMemoryDurability } from "./durability.js";
import { stoppedRunState } from "./run-state.js";
import type { RunLoopResult } from "./run-types.js";

/**
 * The result as `final` gives it: a run that stopped for approvals on the in-memory port carries
 * its `state` (a durable engine's port keeps the run itself, and waits instead).
 */
export function finalResult(
  result: RunLoopResult,
  parts: Omit<
    Parameters<typeof stoppedRunState>[0],
    "journal" | "step" | "pending" | "usageBefore" | "trace"
  > & {
    durability: Durability;
  },
): AgentResult {
  const { interruption, trace, finishReason, pending, output, ...rest } = result;
  if (finishReason !== "approval-required") {
    return { ...rest, finishReason, ...("output" in result ? { output } : {}) };
  }
  const stopped = { ...rest, finishReason, pending: pending ?? [] };
  if (!interruption || !(parts.durability instanceof InMemoryDurability)) {
    // A durable engine's port holds the journal a state would carry: a run on one stops here only
    // when an `approvalTimeoutMs` the caller set ran out, and has no state to resume from.
    return stopped as AgentStoppedResult;
  }
  const { durability, ...described } = parts;
  const state = stoppedRunState({
    ...described,
    ...(trace ? { trace } : {}),
    journal: durability,
    step: interruption.step,
    pending: stopped.pending,
    usageBefore: interruption.usageBefore,
  });
  return { ...stopped, state };
}
