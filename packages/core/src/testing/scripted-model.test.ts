import { ProviderError } from "@junction/types";
import { describe, expect, it } from "vitest";
import { scriptedModel } from "./index.js";

async function events(iterable: AsyncIterable<unknown>): Promise<unknown[]> {
  const all: unknown[] = [];
  for await (const event of iterable) all.push(event);
  return all;
}

describe("scriptedModel", () => {
  it("streams a turn as real provider events, ending in a finish with the whole turn", async () => {
    const provider = scriptedModel([
      {
        reasoning: "hmm",
        text: "Sure thing",
        toolCalls: [{ name: "add", input: { a: 1 } }],
        usage: { inputTokens: 7 },
      },
    ]);
    expect(
      await events(provider.stream({ model: "m", messages: [{ role: "user", content: "hi" }] })),
    ).toEqual([
      { type: "reasoning-delta", text: "hmm" },
      { type: "text-delta", text: "Sure " },
      { type: "text-delta", text: "thing" },
      { type: "tool-call-start", id: "call_1_1", name: "add" },
      { type: "tool-call-delta", id: "call_1_1", argumentsDelta: '{"a":1}' },
      { type: "tool-call", id: "call_1_1", name: "add", input: { a: 1 } },
      {
        type: "finish",
        reason: "tool-calls",
        usage: { inputTokens: 7, outputTokens: 5, totalTokens: 12 },
        content: [
          { type: "reasoning", text: "hmm" },
          { type: "text", text: "Sure thing" },
          { type: "tool-call", id: "call_1_1", name: "add", input: { a: 1 } },
        ],
      },
    ]);
    expect(provider.requests).toEqual([{ model: "m", messages: [{ role: "user", content: "hi" }] }]);
  });

  it("answers with a function of the request, and fails with a ProviderError when the script runs out", async () => {
    const provider = scriptedModel({
      name: "fake",
      responses: [(request) => ({ text: `you said ${String(request.messages[0]!.content)}` })],
    });
    const first = await events(
      provider.stream({ model: "m", messages: [{ role: "user", content: "ping" }] }),
    );
    expect(first.at(-1)).toMatchObject({
      type: "finish",
      content: [{ type: "text", text: "you said ping" }],
    });
    const error = await events(provider.stream({ model: "m", messages: [] })).catch((e) => e);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error.message).toBe("The scripted model has no response left for request 2.");
    expect(provider.name).toBe("fake");
    expect(provider.remaining).toBe(-1);
  });

  it("honours the abort signal during a pause", async () => {
    const controller = new AbortController();
    const provider = scriptedModel([
      {
        events: [
          { type: "pause", ms: 10_000 },
          { type: "text-delta", text: "late" },
        ],
      },
    ]);
    setTimeout(() => controller.abort(), 5);
    await expect(
      events(provider.stream({ model: "m", messages: [], signal: controller.signal })),
    ).rejects.toMatchObject({ code: "aborted" });
  });
});
