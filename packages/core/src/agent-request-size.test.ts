import type { Tool, ToolDefinition } from "@junction/types";
import { describe, expect, it } from "vitest";
import { Agent, type AgentEvent, type Span, type Tracer } from "./index.js";
import { scriptedModel } from "./testing/index.js";

const echo: Tool = {
  name: "echo",
  description: "Echoes.",
  inputSchema: { type: "object", properties: { text: { type: "string" } } },
  execute: async () => "x".repeat(400),
};

describe("accounting: every model request's size on step-end and the trace", () => {
  it("splits each request into tool definitions, history and tool results by the estimator, against the model's window", async () => {
    const provider = scriptedModel({
      capabilities: { contextWindowTokens: 8_000 },
      responses: [{ toolCalls: [{ id: "c1", name: "echo", input: { text: "hi" } }] }, { text: "done" }],
    });
    const attributes: Record<string, unknown>[] = [];
    const tracer: Tracer = {
      startSpan(name, options) {
        if (name === "junction.model.call") attributes.push({ ...options.attributes });
        return { end: () => undefined } as Span;
      },
    };
    const events: AgentEvent[] = [];
    await new Agent({
      provider,
      model: "m",
      system: "Be brief.",
      tools: [echo],
      tracer,
      onEvent: (event) => events.push(event),
    }).send("Say hi back").final;

    const definition: ToolDefinition = {
      name: echo.name,
      description: echo.description,
      inputSchema: echo.inputSchema,
    };
    const toolTokens = Math.ceil(JSON.stringify(definition).length / 3);
    // "Be brief." 9 characters: 3 tokens; the user message: 4 framing + "Say hi back" (11 characters) 3.
    const firstHistory = 3 + 4 + 3;
    // Step 2 adds the assistant message (4 framing + arguments {"text":"hi"} 13 characters: 5 + name "echo" 1)
    // and the tool message (4 framing), and its 400-character result: 100 tokens.
    const secondHistory = firstHistory + 4 + 5 + 1 + 4;
    const stepEnds = events.filter((event) => event.type === "step-end");
    expect(stepEnds.map((event) => event.type === "step-end" && event.request)).toEqual([
      {
        tools: toolTokens,
        history: firstHistory,
        toolResults: 0,
        total: toolTokens + firstHistory,
        contextWindow: 8_000,
      },
      {
        tools: toolTokens,
        history: secondHistory,
        toolResults: 100,
        total: toolTokens + secondHistory + 100,
        contextWindow: 8_000,
      },
    ]);
    expect(attributes.map((a) => a["junction.request.tool_result_tokens"])).toEqual([0, 100]);
    expect(attributes.map((a) => a["junction.request.tool_tokens"])).toEqual([toolTokens, toolTokens]);
    expect(attributes.map((a) => a["junction.request.context_window"])).toEqual([8_000, 8_000]);
  });
});
