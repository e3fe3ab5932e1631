import { describe, expect, it } from "vitest";
import { createSamplingHandler } from "./index.js";
import { scriptedModel } from "./testing/index.js";

describe("createSamplingHandler", () => {
  it("answers a sampling request with the provider, passing the server's settings on", async () => {
    const provider = scriptedModel([{ text: "A haiku about MCP.", finishReason: "stop" }]);
    const handler = createSamplingHandler({ provider, model: "small-model", maxTokensLimit: 50 });
    const result = await handler({
      messages: [
        { role: "user", content: { type: "text", text: "Write a haiku" } },
        { role: "assistant", content: { type: "text", text: "About what?" } },
        {
          role: "user",
          content: [
            { type: "text", text: "About this" },
            { type: "image", data: "AAAA", mimeType: "image/png" },
          ],
        },
      ],
      systemPrompt: "You are a poet.",
      maxTokens: 100,
      temperature: 0.7,
      stopSequences: ["END"],
    });
    expect(result).toEqual({
      model: "small-model",
      role: "assistant",
      content: { type: "text", text: "A haiku about MCP." },
      stopReason: "endTurn",
    });
    expect(provider.requests).toEqual([
      {
        model: "small-model",
        system: "You are a poet.",
        maxTokens: 50,
        temperature: 0.7,
        stopSequences: ["END"],
        messages: [
          { role: "user", content: [{ type: "text", text: "Write a haiku" }] },
          { role: "assistant", content: [{ type: "text", text: "About what?" }] },
          {
            role: "user",
            content: [
              { type: "text", text: "About this" },
              { type: "image", data: "AAAA", mimeType: "image/png" },
            ],
          },
        ],
      },
    ]);
  });

  it("a server's image over the model's limit reaches the model as a note, with a warning", async () => {
    const provider = scriptedModel({
      capabilities: { mediaLimits: { maxImageBytes: 100 } },
      responses: [{ text: "ok", finishReason: "stop" }],
    });
    const warnings: { code: string }[] = [];
    const handler = createSamplingHandler({ provider, model: "m", onWarning: (w) => warnings.push(w) });
    await handler({
      messages: [
        { role: "user", content: { type: "image", data: "A".repeat(4_000), mimeType: "image/png" } },
      ],
      maxTokens: 10,
    });
    const sent = provider.requests[0]!.messages[0]!.content as { type: string; text?: string }[];
    expect(sent).toEqual([
      {
        type: "text",
        text: expect.stringMatching(
          /^\[The user's message had an image \(image\/png\) of 3000 bytes, over the 100-byte limit/,
        ),
      },
    ]);
    expect(warnings.map((warning) => warning.code)).toEqual(["user-media-too-large"]);
  });

  it("asks the approval hook first; a refusal never reaches the model", async () => {
    const provider = scriptedModel([{ text: "never" }]);
    const seen: unknown[] = [];
    const handler = createSamplingHandler({
      provider,
      model: "m",
      approve: (request) => {
        seen.push(request.messages.length);
        return false;
      },
    });
    await expect(
      handler({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 10 }),
    ).rejects.toThrow("The user declined the server's sampling request.");
    expect(seen).toEqual([1]);
    expect(provider.requests).toHaveLength(0);
  });

  it("rejects content it cannot pass on, naming it, and warns about offered tools", async () => {
    const warnings: string[] = [];
    const handler = createSamplingHandler({
      provider: scriptedModel([{ text: "ok", finishReason: "length" }]),
      model: (preferences) => preferences?.hints?.[0]?.name ?? "default",
      onWarning: (warning) => warnings.push(warning.code),
    });
    await expect(
      handler({
        messages: [{ role: "user", content: { type: "tool_result", toolUseId: "x", content: [] } }],
        maxTokens: 10,
      }),
    ).rejects.toThrow(
      'Sampling message 0 has a content block the bridge cannot pass to a model ("tool_result").',
    );
    const result = await handler({
      messages: [{ role: "user", content: { type: "text", text: "hi" } }],
      maxTokens: 10,
      modelPreferences: { hints: [{ name: "hinted" }] },
      tools: [{ name: "t", inputSchema: { type: "object" } }],
    });
    expect(result.model).toBe("hinted");
    expect(result.stopReason).toBe("maxTokens");
    expect(warnings).toEqual(["sampling-tools-unsupported"]);
  });
});
