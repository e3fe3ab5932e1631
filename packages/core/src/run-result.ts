import type { AgentResult } from "./agent-events.js";
import { type Durability, InMemoryDurability } from "./durability.js";
import { type RunState, stoppedRunState } from "./run-state.js";
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
): AgentResult & { state?: RunState } {
  const { interruption, trace, ...rest } = result;
  if (!interruption || !(parts.durability instanceof InMemoryDurability)) return rest;
  const { durability, ...described } = parts;
  const state = stoppedRunState({
    ...described,
    ...(trace ? { trace } : {}),
    journal: durability,
    step: interruption.step,
    pending: rest.pending ?? [],
    usageBefore: interruption.usageBefore,
  });
  return { ...rest, state };
}
