import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { Agent, tool as junctionTool } from "@junction/core";
import { chatCompletions } from "@junction/provider-chatcompletions";
import { startChatCompletionsToolLoop } from "@junction/wire-fake/chat-completions-tool-loop";
import { tool as aiTool, stepCountIs, streamText } from "ai";
import OpenAI from "openai";
import { z } from "zod";
import { median, shuffled } from "./stats.ts";

export interface AgentOverheadFigures {
  /** Per step: wall time of the whole loop divided by its steps, minus the bare HTTP round trip. */
  junctionMs: number;
  aiSDKMs: number;
  /** A bare fetch of one streamed step from the same fake: the cost neither agent can avoid. */
  httpFloorMs: number;
  /**
   * Junction's own work per step: its loop's time per step minus the same steps written by hand on
   * the vendor's SDK its provider uses (`openai`: the same requests, the conversation growing the
   * same way, the tool run inline), so the SDK's, the HTTP stack's and the fake's work is not counted.
   */
  ownWorkMs: number;
  /** Per step, the hand-written loop on the vendor's SDK, over the bare fetch. */
  vendorSDKMs: number;
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
    vendorSDK: async () => {
      const client = new OpenAI({ apiKey: "bench", baseURL: `${fake.url}/v1` });
      await vendorSDKLoop(client);
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
  const perStep: Record<string, number[]> = { junction: [], aiSDK: [], vendorSDK: [], httpFloor: [] };
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
    // Paired by round (the two ran in the same round, under the same load), then the median.
    ownWorkMs: median(perStep.junction!.map((ms, round) => ms - perStep.vendorSDK![round]!)),
    vendorSDKMs: median(perStep.vendorSDK!) - floor,
  };
}

/**
 * The loop by hand on the OpenAI SDK: the Agent's requests as a person would write them (the
 * tool's definition, the streamed answer read to its end, the tool call's arguments parsed and the
 * tool run inline, its result appended), cancellable as the Agent's are (each request is given an
 * abort signal: the SDK's own handling of one costs it about 0.2 ms a request on this machine),
 * with nothing the Agent adds: no validation, policy, journal, events, budget or conversion to
 * neutral messages.
 */
async function vendorSDKLoop(client: OpenAI): Promise<void> {
  const controller = new AbortController();
  const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: "Loop." }];
  const tools: OpenAI.ChatCompletionTool[] = [
    {
      type: "function",
      function: {
        name: "noop",
        description: "Does nothing.",
        parameters: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
      },
    },
  ];
  for (let step = 1; ; step++) {
    const stream = await client.chat.completions.create(
      { model: "bench", messages, tools, stream: true, stream_options: { include_usage: true } },
      { signal: controller.signal },
    );
    let id = "";
    let name = "";
    let args = "";
    let text = "";
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta;
      if (delta?.content) text += delta.content;
      for (const call of delta?.tool_calls ?? []) {
        if (call.id) id = call.id;
        if (call.function?.name) name = call.function.name;
        if (call.function?.arguments) args += call.function.arguments;
      }
    }
    if (!name) {
      if (step !== STEPS || text === "") throw new Error(`the hand-written loop ended at step ${step}`);
      return;
    }
    const { n } = JSON.parse(args) as { n: number };
    messages.push(
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id, type: "function", function: { name, arguments: args } }],
      },
      { role: "tool", tool_call_id: id, content: `ok ${n}` },
    );
  }
}
