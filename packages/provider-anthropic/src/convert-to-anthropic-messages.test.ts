import { COMMON_TOOL_NAME_RULE, createToolNameMapping, type Message } from "@junction/types";
import { describe, expect, it } from "vitest";
import { convertToAnthropicMessages } from "./convert-to-anthropic-messages.js";

const identity = createToolNameMapping([], COMMON_TOOL_NAME_RULE);

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

describe("convertToAnthropicMessages", () => {
  it("converts every user content block, warning about what Anthropic cannot take", () => {
    const messages: Message[] = deepFreeze([
      {
        role: "user",
        content: [
          { type: "text", text: "Look:" },
          { type: "image", data: "/9j/4AAQ", mimeType: "image/jpeg" },
          { type: "image", data: "PHN2Zz4=", mimeType: "image/svg+xml" },
          { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
          {
            type: "resource",
            resource: { uri: "file:///notes.md", mimeType: "text/markdown", text: "# Notes" },
          },
          { type: "resource", resource: { uri: "file:///a.txt", mimeType: "text/plain", blob: "aMOpbGxv" } },
          {
            type: "resource",
            resource: { uri: "file:///a.zip", mimeType: "application/zip", blob: "UEsDBA==" },
          },
          { type: "resource_link", uri: "file:///big.csv", name: "big.csv", mimeType: "text/csv" },
        ],
      },
    ]);
    const { messages: converted, warnings } = convertToAnthropicMessages(messages, { toolNames: identity });
    expect(converted).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "Look:" },
          { type: "image", source: { type: "base64", media_type: "image/jpeg", data: "/9j/4AAQ" } },
          {
            type: "text",
            text: "[an image of type image/svg+xml omitted: not supported by this model provider]",
          },
          { type: "text", text: "[audio (audio/wav) omitted: not supported by this model provider]" },
          {
            type: "document",
            source: { type: "text", media_type: "text/plain", data: "# Notes" },
            title: "file:///notes.md",
          },
          {
            type: "document",
            source: { type: "text", media_type: "text/plain", data: "héllo" },
            title: "file:///a.txt",
          },
          {
            type: "text",
            text: "[the resource file:///a.zip (application/zip) omitted: not supported by this model provider]",
          },
          { type: "text", text: "Resource link: big.csv <file:///big.csv> (text/csv)" },
        ],
      },
    ]);
    expect(warnings.map((warning) => warning.code)).toEqual([
      "user-content-image-type-unsupported",
      "user-content-audio-unsupported",
      "user-content-resource-unsupported",
    ]);
  });

  it("echoes signed and redacted thinking, leaves out unsigned reasoning with a warning, and maps tool names", () => {
    const toolNames = createToolNameMapping(["files.read"], COMMON_TOOL_NAME_RULE);
    const { messages, warnings } = convertToAnthropicMessages(
      [
        { role: "user", content: "Read it." },
        {
          role: "assistant",
          content: [
            { type: "reasoning", text: "Plan.", providerMetadata: { anthropic: { signature: "sig-1" } } },
            { type: "reasoning", text: "", providerMetadata: { anthropic: { redactedData: "EmwKAhgB" } } },
            {
              type: "reasoning",
              text: "From another model.",
              providerMetadata: { openai: { itemId: "rs_1" } },
            },
            { type: "text", text: "" },
            { type: "text", text: "Reading." },
            { type: "tool-call", id: "toolu_1", name: "files.read", input: { path: "a.txt" } },
            { type: "tool-call", id: "toolu_2", name: "files.read", input: "a.txt" },
          ],
        },
      ],
      { toolNames },
    );
    const vendorName = toolNames.toVendor("files.read");
    expect(vendorName).toMatch(/^files_read_/);
    expect(messages[1]).toEqual({
      role: "assistant",
      content: [
        { type: "thinking", thinking: "Plan.", signature: "sig-1" },
        { type: "redacted_thinking", data: "EmwKAhgB" },
        { type: "text", text: "Reading." },
        { type: "tool_use", id: "toolu_1", name: vendorName, input: { path: "a.txt" } },
        { type: "tool_use", id: "toolu_2", name: vendorName, input: {} },
      ],
    });
    expect(warnings.map((warning) => warning.code)).toEqual([
      "reasoning-not-replayable",
      "tool-call-input-not-object",
    ]);
  });

  it("puts tool results in a user message, first, merged with the user text that follows", () => {
    const { messages, warnings } = convertToAnthropicMessages(
      [
        { role: "user", content: "Go." },
        { role: "assistant", content: [{ type: "tool-call", id: "toolu_1", name: "run", input: {} }] },
        {
          role: "tool",
          content: [
            {
              type: "tool-result",
              toolCallId: "toolu_1",
              toolName: "run",
              output: { content: [{ type: "text", text: "boom" }], isError: true },
            },
          ],
        },
        { role: "user", content: "Try again." },
        { role: "user", content: [{ type: "text", text: "Carefully." }] },
      ],
      { toolNames: identity },
    );
    expect(warnings).toEqual([]);
    expect(messages).toEqual([
      { role: "user", content: "Go." },
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "run", input: {} }] },
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: "toolu_1",
            content: [{ type: "text", text: "boom" }],
            is_error: true,
          },
          { type: "text", text: "Try again." },
          { type: "text", text: "Carefully." },
        ],
      },
    ]);
  });

  it("moves tool results ahead of user text that came before them in the same turn", () => {
    const { messages } = convertToAnthropicMessages(
      [
        { role: "assistant", content: [{ type: "tool-call", id: "toolu_1", name: "run", input: {} }] },
        { role: "user", content: "Also this." },
        {
          role: "tool",
          content: [{ type: "tool-result", toolCallId: "toolu_1", toolName: "run", output: "ok" }],
        },
      ],
      { toolNames: identity },
    );
    expect(messages[1]).toEqual({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "toolu_1", content: "ok" },
        { type: "text", text: "Also this." },
      ],
    });
  });

  it("sends structured content as JSON text when a result has no text, and leaves empty results without content", () => {
    const { messages } = convertToAnthropicMessages(
      [
        {
          role: "tool",
          content: [
            {
              type: "tool-result",
              toolCallId: "toolu_1",
              toolName: "stats",
              output: { content: [], isError: false, structuredContent: { count: 3 } },
            },
            {
              type: "tool-result",
              toolCallId: "toolu_2",
              toolName: "noop",
              output: { content: [], isError: false },
            },
          ],
        },
      ],
      { toolNames: identity },
    );
    expect(messages).toEqual([
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_1", content: [{ type: "text", text: '{"count":3}' }] },
          { type: "tool_result", tool_use_id: "toolu_2" },
        ],
      },
    ]);
  });

  it("warns about audio and unsupported binary resources in tool results", () => {
    const { warnings } = convertToAnthropicMessages(
      [
        {
          role: "tool",
          content: [
            {
              type: "tool-result",
              toolCallId: "toolu_1",
              toolName: "media",
              output: {
                content: [
                  { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
                  { type: "resource", resource: { uri: "file:///x.bin", blob: "AAEC" } },
                ],
                isError: false,
              },
            },
          ],
        },
      ],
      { toolNames: identity },
    );
    expect(warnings).toEqual([
      {
        code: "tool-result-audio-unsupported",
        message:
          "Anthropic cannot take audio (audio/wav) in a tool result; a text note was sent in its place.",
      },
      {
        code: "tool-result-resource-unsupported",
        message:
          "Anthropic cannot take the resource file:///x.bin (application/octet-stream) in a tool result; a text note was sent in its place.",
      },
    ]);
  });
});

describe("convertToAnthropicMessages, blocks sent back unchanged", () => {
  const names = createToolNameMapping(["lookup"], COMMON_TOOL_NAME_RULE);

  it("sends a compaction block back exactly as it came, and a tool call with its caller", () => {
    const compaction = {
      type: "compaction",
      content: "Summary.",
      encrypted_content: "enc_1",
      signature: "sig_1",
      tool_changes: [],
    };
    const caller = { type: "code_execution_20250825", tool_id: "srvtoolu_1" };
    const { messages, warnings } = convertToAnthropicMessages(
      [
        { role: "user", content: "Go on." },
        {
          role: "assistant",
          content: [
            { type: "reasoning", text: "", providerMetadata: { anthropic: { compaction } } },
            { type: "text", text: "Looking." },
            {
              type: "tool-call",
              id: "toolu_1",
              name: "lookup",
              input: { id: "c_1" },
              providerMetadata: { anthropic: { caller } },
            },
          ],
        },
      ],
      { toolNames: names },
    );
    expect(warnings).toEqual([]);
    expect(messages[1]).toEqual({
      role: "assistant",
      content: [
        compaction,
        { type: "text", text: "Looking." },
        { type: "tool_use", id: "toolu_1", name: "lookup", input: { id: "c_1" }, caller },
      ],
    });
  });
});
