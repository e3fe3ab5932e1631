import { describe, expect, it } from "vitest";
import { type AlternatingMessage, appendAlternating } from "./append-alternating.js";

type Block = { text: string } | { result: string };
const isToolResult = (block: Block) => "result" in block;

describe("appendAlternating", () => {
  it("starts a message for a new role and skips empty content", () => {
    const messages: AlternatingMessage<Block>[] = [];
    appendAlternating(messages, { role: "user", blocks: [{ text: "hi" }] }, isToolResult);
    appendAlternating(messages, { role: "assistant", blocks: [] }, isToolResult);
    appendAlternating(messages, { role: "assistant", blocks: [{ text: "hello" }] }, isToolResult);
    expect(messages).toEqual([
      { role: "user", content: [{ text: "hi" }] },
      { role: "assistant", content: [{ text: "hello" }] },
    ]);
  });

  it("joins blocks of the same role, tool results first in a user message", () => {
    const messages: AlternatingMessage<Block>[] = [];
    appendAlternating(messages, { role: "user", blocks: [{ text: "look" }] }, isToolResult);
    appendAlternating(
      messages,
      { role: "user", blocks: [{ result: "r1" }, { text: "note" }, { result: "r2" }] },
      isToolResult,
    );
    expect(messages).toEqual([
      { role: "user", content: [{ result: "r1" }, { result: "r2" }, { text: "look" }, { text: "note" }] },
    ]);
  });

  it("keeps the order of an assistant message's blocks", () => {
    const messages: AlternatingMessage<Block>[] = [];
    appendAlternating(messages, { role: "assistant", blocks: [{ text: "a" }] }, isToolResult);
    appendAlternating(
      messages,
      { role: "assistant", blocks: [{ result: "odd" }, { text: "b" }] },
      isToolResult,
    );
    expect(messages).toEqual([
      { role: "assistant", content: [{ text: "a" }, { result: "odd" }, { text: "b" }] },
    ]);
  });
});
