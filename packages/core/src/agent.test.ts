import { JunctionError, ProviderError, type ToolResult } from "@junction/types";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent, type AgentEvent, tool } from "./index.js";
import { scriptedModel } from "./testing/index.js";

const add = tool({
  name: "add",
  description: "Adds two numbers",
  schema: z.object({ a: z.number(), b: z.number() }),
  execute: async ({ a, b }) => String(a + b),
});

async function collect(handle: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of handle) events.push(event);
  return events;
}

describe("Agent: the loop", () => {
  it("runs a multi-step loop and feeds each result back to the model", async () => {
    const provider = scriptedModel([
      { text: "Let me add.", toolCalls: [{ id: "c1", name: "add", input: { a: 2, b: 3 } }] },
      { toolCalls: [{ id: "c2", name: "add", input: { a: 5, b: 10 } }] },
      { text: "The total is 15." },
    ]);
    const agent = new Agent({ provider, model: "m", system: "Be brief.", tools: [add] });
    const handle = agent.send("What is 2 + 3 + 10?");
    const events = await collect(handle);
    const result = await handle.final;

    expect(result.text).toBe("The total is 15.");
    expect(result.finishReason).toBe("stop");
    expect(result.steps.map((s) => s.toolCalls.map((c) => c.id))).toEqual([["c1"], ["c2"], []]);
    expect(result.usage).toEqual({ inputTokens: 30, outputTokens: 15, totalTokens: 45 });
    expect(events.map((e) => e.type)).toEqual([
      "text-delta",
      "text-delta",
      "text-delta",
      "tool-call",
      "tool-result",
      "step-end",
      "tool-call",
      "tool-result",
      "step-end",
      "text-delta",
      "text-delta",
      "text-delta",
      "text-delta",
      "step-end",
      "finish",
    ]);
    expect(provider.requests).toHaveLength(3);
    expect(provider.requests[0]).toMatchObject({ model: "m", system: "Be brief." });
    expect(provider.requests[0]!.tools).toEqual([
      {
        name: "add",
        description: "Adds two numbers",
        inputSchema: {
          type: "object",
          properties: { a: { type: "number" }, b: { type: "number" } },
          required: ["a", "b"],
        },
      },
    ]);
    // The second request carries the first turn and its result; a plain string stays a string.
    expect(provider.requests[1]!.messages).toEqual([
      { role: "user", content: "What is 2 + 3 + 10?" },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Let me add." },
          { type: "tool-call", id: "c1", name: "add", input: { a: 2, b: 3 } },
        ],
      },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "c1", toolName: "add", output: "5" }] },
    ]);
    expect(agent.messages).toHaveLength(6);
  });

  it("echoes the provider's finished content (with its metadata) as the assistant message", async () => {
    const provider = scriptedModel([
      {
        events: [
          { type: "reasoning-delta", text: "thinking" },
          { type: "text-delta", text: "Hi" },
          {
            type: "finish",
            reason: "stop",
            usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 },
            content: [
              {
                type: "reasoning",
                text: "thinking",
                providerMetadata: { anthropic: { signature: "sig-1" } },
              },
              { type: "text", text: "Hi" },
            ],
          },
        ],
      },
      { text: "again" },
    ]);
    const agent = new Agent({ provider, model: "m" });
    const first = agent.send("hello");
    const events = await collect(first);
    expect(events.slice(0, 2)).toEqual([
      { type: "reasoning-delta", text: "thinking" },
      { type: "text-delta", text: "Hi" },
    ]);
    expect((await first.final).steps[0]!.reasoning).toBe("thinking");
    await agent.send("and again").final;
    expect(provider.requests[1]!.messages[1]).toEqual({
      role: "assistant",
      content: [
        { type: "reasoning", text: "thinking", providerMetadata: { anthropic: { signature: "sig-1" } } },
        { type: "text", text: "Hi" },
      ],
    });
  });

  it("keeps the conversation across send() calls, and restores it from JSON", async () => {
    const provider = scriptedModel([
      { toolCalls: [{ id: "c1", name: "add", input: { a: 1, b: 1 } }] },
      { text: "2" },
      { text: "4" },
    ]);
    const agent = new Agent({ provider, model: "m", tools: [add] });
    await agent.send("1+1?").final;
    const saved = JSON.stringify(agent.messages);

    const restored = new Agent({ provider, model: "m", tools: [add], messages: JSON.parse(saved) });
    const result = await restored.send([{ type: "text", text: "double it" }]).final;
    expect(result.text).toBe("4");
    expect(provider.requests[2]!.messages).toEqual([
      ...JSON.parse(saved),
      { role: "user", content: [{ type: "text", text: "double it" }] },
    ]);
    expect(JSON.parse(JSON.stringify(result.messages))).toEqual(result.messages);

    const other = new Agent({ provider, model: "m" });
    other.messages = JSON.parse(saved);
    expect(other.messages).toEqual(JSON.parse(saved));
    expect(() => {
      other.messages = [{ role: "system", content: "x" }] as never;
    }).toThrow(/message 0: unknown role "system"/);
  });

  it("agent.messages cannot be replaced while a run is going (agent-busy); the run's conversation stands, and it can be replaced after", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = tool({
      name: "slow",
      description: "Waits",
      schema: z.object({}),
      execute: async () => {
        await gate;
        return "done";
      },
    });
    const provider = scriptedModel([
      { toolCalls: [{ id: "s1", name: "slow", input: {} }] },
      { text: "finished" },
    ]);
    const agent = new Agent({ provider, model: "m", tools: [slow] });
    const replacement = [{ role: "user" as const, content: "something else" }];
    const handle = agent.send("go");
    // Queued and not started yet counts as going: the run would read the conversation later.
    expect(() => {
      agent.messages = replacement;
    }).toThrow(
      expect.objectContaining({
        code: "agent-busy",
        message:
          "agent.messages cannot be replaced while a run of this Agent is going (a send() or resume() whose `final` has not settled): " +
          "await its `final` first, or abort it with the `signal` you gave it.",
      }),
    );
    for await (const event of handle) if (event.type === "tool-call") break;
    expect(() => {
      agent.messages = replacement;
    }).toThrow(expect.objectContaining({ code: "agent-busy" }));
    release();
    const result = await handle.final;
    expect(agent.messages).toEqual([
      { role: "user", content: "go" },
      { role: "assistant", content: [{ type: "tool-call", id: "s1", name: "slow", input: {} }] },
      { role: "tool", content: [expect.objectContaining({ toolCallId: "s1", toolName: "slow" })] },
      { role: "assistant", content: [{ type: "text", text: "finished" }] },
    ]);
    expect(agent.messages).toEqual(result.messages);
    // Settled (in the same turn as `await final`): it can be replaced.
    agent.messages = replacement;
    expect(agent.messages).toEqual(replacement);
  });

  it("keeps what a failed run committed: its finished steps stay in the conversation, and the next send goes on from them", async () => {
    const provider = scriptedModel([
      { toolCalls: [{ id: "c1", name: "add", input: { a: 2, b: 3 } }] },
      { error: new ProviderError({ message: "the model is down", provider: "scripted", retryable: false }) },
      { text: "5" },
    ]);
    const agent = new Agent({ provider, model: "m", tools: [add] });
    const first = agent.send("2 + 3?");
    const seen: number[] = [];
    for await (const event of first) if (event.type === "step-end") seen.push(agent.messages.length);
    await expect(first.final).rejects.toThrow("the model is down");
    // During the run the Agent's conversation is the one the run started from; the run's end brings the rest.
    expect(seen).toEqual([1]);
    const committed = [
      { role: "user", content: "2 + 3?" },
      { role: "assistant", content: [{ type: "tool-call", id: "c1", name: "add", input: { a: 2, b: 3 } }] },
      { role: "tool", content: [expect.objectContaining({ toolCallId: "c1", output: "5" })] },
    ];
    expect(agent.messages).toEqual(committed);
    const second = await agent.send("again?").final;
    expect(provider.requests.at(-1)?.messages).toEqual([...committed, { role: "user", content: "again?" }]);
    expect(second.messages).toEqual([
      ...committed,
      { role: "user", content: "again?" },
      { role: "assistant", content: [{ type: "text", text: "5" }] },
    ]);
  });

  it("stops at maxSteps with a clear finish reason and warning", async () => {
    const provider = scriptedModel([
      { toolCalls: [{ id: "c1", name: "add", input: { a: 1, b: 1 } }] },
      { toolCalls: [{ id: "c2", name: "add", input: { a: 1, b: 2 } }] },
      { text: "never reached" },
    ]);
    const agent = new Agent({ provider, model: "m", tools: [add], maxSteps: 2 });
    const handle = agent.send("loop");
    const events = await collect(handle);
    const result = await handle.final;
    expect(result.finishReason).toBe("max-steps");
    expect(result.warnings.map((w) => w.code)).toEqual(["max-steps-reached"]);
    expect(events.at(-1)).toEqual({
      type: "finish",
      reason: "max-steps",
      usage: { inputTokens: 20, outputTokens: 10, totalTokens: 30 },
    });
    expect(provider.remaining).toBe(1);
    // Both calls still got results, so the saved history is valid for the next send.
    expect(agent.messages.at(-1)).toEqual({
      role: "tool",
      content: [{ type: "tool-result", toolCallId: "c2", toolName: "add", output: "3" }],
    });
  });

  it("surfaces a provider failure as an error event and rejects final", async () => {
    const failure = new ProviderError({
      provider: "scripted",
      message: "overloaded",
      status: 529,
      retryable: true,
    });
    const provider = scriptedModel([{ text: "partial", error: failure }]);
    const agent = new Agent({ provider, model: "m" });
    const handle = agent.send("hi");
    const events = await collect(handle);
    await expect(handle.final).rejects.toBe(failure);
    expect(events.at(-1)).toEqual({ type: "error", error: failure });
    expect(events.map((e) => e.type)).toEqual(["text-delta", "error"]);
  });

  it("wraps a non-Junction stream failure in a ProviderError naming the provider", async () => {
    const provider = scriptedModel([{ text: "x", error: new TypeError("socket hang up") }]);
    const handle = new Agent({ provider, model: "m" }).send("hi");
    const error = await handle.final.catch((e) => e);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error.message).toBe("The scripted stream failed: socket hang up");
  });

  it("runs sends one after another on the same agent", async () => {
    const provider = scriptedModel([{ text: "one", delayMs: 20 }, { text: "two" }]);
    const agent = new Agent({ provider, model: "m" });
    const first = agent.send("a");
    const second = agent.send("b");
    expect((await second.final).text).toBe("two");
    expect((await first.final).text).toBe("one");
    expect(provider.requests[1]!.messages).toEqual([
      { role: "user", content: "a" },
      { role: "assistant", content: [{ type: "text", text: "one" }] },
      { role: "user", content: "b" },
    ]);
  });

  it("reports events to onEvent in order, and lets several readers see them all", async () => {
    const seen: string[] = [];
    const provider = scriptedModel([{ text: "hi there" }]);
    const agent = new Agent({ provider, model: "m", onEvent: (event) => seen.push(event.type) });
    const handle = agent.send("x");
    await handle.final;
    const [a, b] = await Promise.all([collect(handle), collect(handle)]);
    expect(a).toEqual(b);
    expect(seen).toEqual(a.map((e) => e.type));
    expect(seen).toEqual(["text-delta", "text-delta", "step-end", "finish"]);
  });

  it("rejects bad configuration with a named JunctionError", () => {
    const provider = scriptedModel([]);
    expect(() => new Agent({ provider, model: "" })).toThrow(/`model` must be a non-empty string/);
    expect(() => new Agent({ provider, model: "m", maxSteps: 0 })).toThrow(
      /`maxSteps` must be a positive integer/,
    );
    const error = (() => {
      try {
        new Agent({ provider, model: "m", toolConcurrency: 1.5 });
      } catch (e) {
        return e;
      }
    })();
    expect(JunctionError.isInstance(error) && error.code).toBe("invalid-argument");
  });

  it("keeps rich results (parts, structuredContent) intact on their way to the provider", async () => {
    const image = { type: "image" as const, data: "iVBORw0KGgo=", mimeType: "image/png" };
    const rich = {
      name: "snapshot",
      description: "Takes a snapshot",
      inputSchema: { type: "object", properties: {} },
      execute: async (): Promise<ToolResult> => ({
        content: [
          { type: "text", text: "here" },
          image,
          { type: "resource_link", uri: "file:///a", name: "a" },
        ],
        isError: false,
        structuredContent: { width: 1 },
      }),
    };
    const parts = { ...rich, name: "parts", execute: async () => [image] };
    const provider = scriptedModel([
      {
        toolCalls: [
          { id: "r", name: "snapshot" },
          { id: "p", name: "parts" },
        ],
      },
      { text: "done" },
    ]);
    await new Agent({ provider, model: "m", tools: [rich, parts] }).send("snap").final;
    expect(provider.requests[1]!.messages[2]).toEqual({
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "r",
          toolName: "snapshot",
          output: {
            content: [
              { type: "text", text: "here" },
              image,
              { type: "resource_link", uri: "file:///a", name: "a" },
            ],
            isError: false,
            structuredContent: { width: 1 },
          },
        },
        {
          type: "tool-result",
          toolCallId: "p",
          toolName: "parts",
          output: { content: [image], isError: false },
        },
      ],
    });
  });
});
