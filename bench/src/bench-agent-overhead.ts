import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { Agent, tool as junctionTool } from "@junction/core";
import { chatCompletions } from "@junction/provider-chatcompletions";
import { startChatCompletionsToolLoop } from "@junction/wire-fake/chat-completions-tool-loop";
import { tool as aiTool, stepCountIs, streamText } from "ai";
import { z } from "zod";
import { median, shuffled } from "./stats.ts";

export interface AgentOverheadFigures {
  /** Per step: wall time of the whole loop divided by its steps, minus the bare HTTP round trip. */
  junctionMs: number;
  aiSDKMs: number;
  /** A bare fetch of one streamed step from the same fake: the cost neither agent can avoid. */
  httpFloorMs: number;
}

const STEPS = 20;
const TOOL_STEPS = STEPS - 1;

/**
 * Agent overhead per step on a 20-step loop (19 tool steps and a final answer): Junction's
 * Agent with the Chat Completions provider, and the AI SDK's streamText with a tool, both
 * against the same local Chat Completions fake, with an instant tool.
 */
export async function benchAgentOverhead(rounds: number): Promise<AgentOverheadFigures> {
  const fake = await startChatCompletionsToolLoop({ toolName: "noop", toolSteps: TOOL_STEPS });
  const schema = z.object({ n: z.number() });
  const contenders: Record<string, () => Promise<void>> = {
    junction: async () => {
      const agent = new Agent({
        provider: chatCompletions({ baseURL: `${fake.url}/v1`, apiKey: "bench" }),
        model: "bench",
        tools: [
          junctionTool({
            name: "noop",
            description: "Does nothing.",
            schema,
            execute: async ({ n }) => `ok ${n}`,
          }),
        ],
        maxSteps: STEPS,
      });
      const result = await agent.send("Loop.").final;
      if (result.steps.length !== STEPS) throw new Error(`Junction ran ${result.steps.length} steps`);
    },
    aiSDK: async () => {
      const provider = createOpenAICompatible({ name: "bench", baseURL: `${fake.url}/v1`, apiKey: "bench" });
      const result = streamText({
        model: provider.chatModel("bench"),
        prompt: "Loop.",
        tools: {
          noop: aiTool({
            description: "Does nothing.",
            inputSchema: schema,
            execute: async ({ n }) => `ok ${n}`,
          }),
        },
        stopWhen: stepCountIs(STEPS),
      });
      await result.consumeStream();
      const steps = await result.steps;
      if (steps.length !== STEPS) throw new Error(`AI SDK ran ${steps.length} steps`);
    },
    httpFloor: async () => {
      for (let step = 0; step < STEPS; step++) {
        const response = await fetch(`${fake.url}/v1/chat/completions`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ messages: [] }),
        });
        await response.text();
      }
    },
  };
  const perStep: Record<string, number[]> = { junction: [], aiSDK: [], httpFloor: [] };
  try {
    for (const run of Object.values(contenders)) await run(); // warm-up
    for (let round = 0; round < rounds; round++) {
      for (const name of shuffled(Object.keys(contenders))) {
        const start = performance.now();
        await contenders[name]!();
        perStep[name]!.push((performance.now() - start) / STEPS);
      }
    }
  } finally {
    await fake.close();
  }
  const floor = median(perStep.httpFloor!);
  return {
    junctionMs: median(perStep.junction!) - floor,
    aiSDKMs: median(perStep.aiSDK!) - floor,
    httpFloorMs: floor,
  };
}
