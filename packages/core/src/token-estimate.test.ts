import { describe, expect, it } from "vitest";
import { scriptedModel } from "./testing/index.js";
import {
  contextWindowOf,
  DEFAULT_CONTEXT_WINDOW_TOKENS,
  estimateJSONTokens,
  estimatePartTokens,
  estimateRequestSize,
  estimateTextTokens,
} from "./token-estimate.js";

describe("token estimator", () => {
  it("counts prose at 4 characters a token and CJK characters one each", () => {
    expect(estimateTextTokens("abcdefgh")).toBe(2);
    expect(estimateTextTokens("abcdefghi")).toBe(3);
    expect(estimateTextTokens("日本語のテキスト")).toBe(8);
    expect(estimateTextTokens("ab日本")).toBe(3);
  });

  it("counts JSON at 3 characters a token, and media by kind", () => {
    expect(estimateJSONTokens({ a: 1 })).toBe(3); // {"a":1} is 7 characters
    expect(estimatePartTokens({ type: "image", data: "AAAA", mimeType: "image/png" })).toBe(1600);
    // 4,000 base64 characters decode to 3,000 bytes: 6 tokens of audio, 188 of a document.
    expect(estimatePartTokens({ type: "audio", data: "A".repeat(4000), mimeType: "audio/wav" })).toBe(6);
    expect(
      estimatePartTokens({ type: "resource", resource: { uri: "file:///a.pdf", blob: "A".repeat(4000) } }),
    ).toBe(188);
  });

  it("splits a request into tools, history and tool results", () => {
    const size = estimateRequestSize({
      system: "abcd",
      messages: [
        { role: "user", content: "abcdefgh" },
        { role: "assistant", content: [{ type: "tool-call", id: "c1", name: "look", input: { q: 1 } }] },
        {
          role: "tool",
          content: [{ type: "tool-result", toolCallId: "c1", toolName: "look", output: "x".repeat(40) }],
        },
      ],
      tools: [{ name: "look", description: "", inputSchema: { type: "object" } }],
      contextWindow: 1000,
    });
    // tools: 64 characters of JSON; system 1 + user (4 + 2) + assistant (4 + 3 + 1) + tool message framing 4
    expect(size).toEqual({ tools: 22, history: 19, toolResults: 10, total: 51, contextWindow: 1000 });
  });

  it("takes the window a provider declares for the model, else the default", () => {
    const declared = scriptedModel({ responses: [], capabilities: { contextWindowTokens: 8000 } });
    expect(contextWindowOf(declared, "m")).toBe(8000);
    expect(contextWindowOf(scriptedModel({ responses: [] }), "m")).toBe(DEFAULT_CONTEXT_WINDOW_TOKENS);
  });
});
