// Compile-time only (run by `pnpm type-check`): a result narrows on its finish reason, so strict
// code reads a stopped run's `pending` and `state` without `!`, and a finished run has neither
// (issue 26). The same for the Agent's `send()` and `resume()`, and for `stream()` / `generate()`.

import type { Agent } from "./agent.js";
import type { AgentResult } from "./agent-events.js";
import type { PendingToolCall, RunState } from "./run-state.js";
import { generate, stream } from "./stream.js";

function read(result: AgentResult<{ city: string }>): void {
  if (result.finishReason === "approval-required") {
    const pending: PendingToolCall[] = result.pending;
    const state: RunState = result.state;
    const firstId: string = result.state.pending[0]!.id;
    // A stopped run has no answer yet.
    const output: undefined = result.output;
    void [pending, state, firstId, output];
  } else {
    const pending: undefined = result.pending;
    const state: undefined = result.state;
    const output: { city: string } | undefined = result.output;
    // @ts-expect-error: a finished run's reason is never approval-required.
    const reason: "approval-required" = result.finishReason;
    void [pending, state, output, reason];
  }
}

export async function viaAgent(agent: Agent<{ city: string }>): Promise<void> {
  const first = await agent.send("Weather in Paris?").final;
  read(first);
  if (first.finishReason !== "approval-required") return;
  const again = await agent.resume({ state: first.state, decisions: { [first.pending[0]!.id]: "approve" } })
    .final;
  read(again);
  // @ts-expect-error: without narrowing, `state` may be undefined.
  const unnarrowed: RunState = again.state;
  void unnarrowed;
}

export async function withoutAnAgent(options: Parameters<typeof stream>[0]): Promise<void> {
  const streamed = await stream(options).final;
  const generated = await generate(options);
  for (const result of [streamed, generated]) {
    if (result.finishReason === "approval-required") {
      const next = await generate({ ...options, resume: { state: result.state } });
      const pending: PendingToolCall[] | undefined = next.pending;
      void pending;
    }
  }
}
