import { Agent, annotationPolicy, type RunState, signRunState, verifyRunState } from "@junction/core";
import { scriptedModel } from "@junction/core/testing";
import type { Message } from "@junction/types";
import { median, percentile } from "./stats.ts";

/** What signing and verifying a run state costs (`runStateKey`). */
export interface RunStateSigningFigures {
  messages: number;
  /** The state's JSON size. */
  bytes: number;
  /** Median of one `signRunState` + one `verifyRunState` (which parses the state too). */
  signAndVerifyMs: number;
  /** 95th percentile of the same. */
  p95Ms: number;
  /** Measured rounds (after 20 to warm up). */
  rounds: number;
}

const MESSAGES = 50;

/**
 * Signs and verifies a state that stopped for an approval after a 50-message conversation
 * (user questions, assistant answers with a tool call, 2 KB tool results), as `resume()` would
 * with a key: the key is imported once, as in an application that keeps it.
 */
export async function benchRunStateSigning(rounds: number): Promise<RunStateSigningFigures> {
  const key = { id: "bench", secret: "a secret of the bench application" };
  const state = await stoppedState();
  const bytes = JSON.stringify(state).length;
  const samples: number[] = [];
  for (let round = 0; round < rounds + 20; round++) {
    const start = performance.now();
    const signed = await signRunState(state, key);
    await verifyRunState(signed, key);
    // The first rounds warm the JIT and import the key.
    if (round >= 20) samples.push(performance.now() - start);
  }
  return {
    messages: state.messages.length,
    bytes,
    signAndVerifyMs: median(samples),
    p95Ms: percentile(samples, 0.95),
    rounds,
  };
}

async function stoppedState(): Promise<RunState> {
  const messages: Message[] = [];
  for (let index = 0; messages.length < MESSAGES; index++) {
    messages.push({ role: "user", content: `Question ${index}: what is in report ${index}?` });
    messages.push({
      role: "assistant",
      content: [{ type: "tool-call", id: `c${index}`, name: "read_report", input: { id: index } }],
    });
    messages.push({
      role: "tool",
      content: [
        { type: "tool-result", toolCallId: `c${index}`, toolName: "read_report", output: "r".repeat(2048) },
      ],
    });
  }
  const agent = new Agent({
    provider: scriptedModel([{ toolCalls: [{ id: "w", name: "write_report", input: { id: 1 } }] }]),
    model: "m",
    messages: messages.slice(0, MESSAGES - 1),
    approval: annotationPolicy(),
    tools: [
      {
        name: "write_report",
        description: "Writes a report",
        inputSchema: { type: "object", properties: { id: { type: "number" } } },
        execute: async () => "written",
      },
    ],
  });
  const result = await agent.send("Write report 1.").final;
  return result.state!;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await benchRunStateSigning(500);
  console.log(
    `run state signing: ${figures.messages} messages, ${(figures.bytes / 1024).toFixed(0)} KB; ` +
      `sign + verify median ${figures.signAndVerifyMs.toFixed(3)} ms, p95 ${figures.p95Ms.toFixed(3)} ms`,
  );
}
