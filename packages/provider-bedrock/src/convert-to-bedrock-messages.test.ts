import { COMMON_TOOL_NAME_RULE, createToolNameMapping } from "@junction/types";
import { describe, expect, it } from "vitest";
import { convertToBedrockMessages } from "./convert-to-bedrock-messages.js";
import { prepareBedrockTools } from "./prepare-bedrock-tools.js";

const toolNames = createToolNameMapping([], COMMON_TOOL_NAME_RULE);
const bytes = (text: string) => new TextEncoder().encode(text);

describe("convertToBedrockMessages", () => {
  it("converts user content: images as bytes, documents with names Bedrock accepts, notes for what it cannot take", () => {
    const gif = btoa("GIF89a");
    const { messages, warnings } = convertToBedrockMessages(
      [
        {
          role: "user",
          content: [
            { type: "text", text: "Look:" },
            { type: "image", data: gif, mimeType: "image/gif" },
            { type: "image", data: "AAAA", mimeType: "image/bmp" },
            { type: "image", data: "not base64!", mimeType: "image/png" },
            {
              type: "resource",
              resource: {
                uri: "https://x.test/a/Q3 Report (final)!.csv",
                mimeType: "text/csv",
                blob: btoa("a,b"),
              },
            },
            { type: "resource", resource: { uri: "file:///notes.txt", text: "one" } },
            {
              type: "resource",
              resource: { uri: "file:///other/notes.txt", mimeType: "text/plain", text: "two" },
            },
            {
              type: "resource",
              resource: { uri: "file:///photo.webp", mimeType: "image/webp", blob: btoa("RIFF") },
            },
            {
              type: "resource",
              resource: { uri: "file:///archive.zip", mimeType: "application/zip", blob: "UEsDBA==" },
            },
            { type: "resource_link", uri: "https://x.test/doc", name: "doc", mimeType: "text/html" },
            { type: "text", text: "" },
          ],
        },
      ],
      { toolNames },
    );
    expect(messages).toEqual([
      {
        role: "user",
        content: [
          { text: "Look:" },
          { image: { format: "gif", source: { bytes: bytes("GIF89a") } } },
          { text: "[an image of type image/bmp omitted: not supported by this model provider]" },
          { text: "[an image omitted: its data was not valid base64]" },
          { document: { format: "csv", name: "Q3 Report (final)", source: { bytes: bytes("a,b") } } },
          { document: { format: "txt", name: "notes", source: { bytes: bytes("one") } } },
          { document: { format: "txt", name: "notes (2)", source: { bytes: bytes("two") } } },
          { image: { format: "webp", source: { bytes: bytes("RIFF") } } },
          {
            text: "[the resource file:///archive.zip (application/zip) omitted: not supported by this model provider]",
          },
          { text: "Resource link: doc <https://x.test/doc> (text/html)" },
        ],
      },
    ]);
    expect(warnings.map((warning) => warning.code)).toEqual([
      "user-content-image-type-unsupported",
      "user-content-image-invalid",
      "user-content-resource-unsupported",
    ]);
  });

  it("merges consecutive messages of one role with tool results first, and leaves out reasoning from other providers", () => {
    const { messages, warnings } = convertToBedrockMessages(
      [
        { role: "user", content: "Hi" },
        {
          role: "assistant",
          content: [
            { type: "reasoning", text: "theirs", providerMetadata: { anthropic: { signature: "s" } } },
            { type: "text", text: "" },
            { type: "tool-call", id: "t1", name: "get_weather", input: "not an object" },
          ],
        },
        { role: "user", content: "Also this." },
        {
          role: "tool",
          content: [{ type: "tool-result", toolCallId: "t1", toolName: "get_weather", output: "Sunny" }],
        },
      ],
      { toolNames },
    );
    expect(messages).toEqual([
      { role: "user", content: [{ text: "Hi" }] },
      { role: "assistant", content: [{ toolUse: { toolUseId: "t1", name: "get_weather", input: {} } }] },
      {
        role: "user",
        content: [{ toolResult: { toolUseId: "t1", content: [{ text: "Sunny" }] } }, { text: "Also this." }],
      },
    ]);
    expect(warnings.map((warning) => warning.code)).toEqual([
      "reasoning-not-replayable",
      "tool-call-input-not-object",
    ]);
  });
});

describe("convertToBedrockMessages without tools", () => {
  it("sends tool history as text (Bedrock rejects tool blocks without toolConfig), keeping images, with one warning", () => {
    const { messages, warnings } = convertToBedrockMessages(
      [
        { role: "user", content: "Hi" },
        {
          role: "assistant",
          content: [
            { type: "tool-call", id: "t1", name: "fs.read", input: { path: "a" } },
            { type: "tool-call", id: "t2", name: "pic", input: {} },
          ],
        },
        {
          role: "tool",
          content: [
            { type: "tool-result", toolCallId: "t1", toolName: "fs.read", output: "contents" },
            {
              type: "tool-result",
              toolCallId: "t2",
              toolName: "pic",
              output: {
                content: [{ type: "image", data: btoa("GIF89a"), mimeType: "image/gif" }],
                isError: true,
              },
            },
          ],
        },
      ],
      { toolNames, toolsAsText: true },
    );
    expect(messages).toEqual([
      { role: "user", content: [{ text: "Hi" }] },
      {
        role: "assistant",
        content: [
          { text: '[Called tool fs.read (call t1) with {"path":"a"}]' },
          { text: "[Called tool pic (call t2) with {}]" },
        ],
      },
      {
        role: "user",
        content: [
          { text: "[Result of tool fs.read (call t1):]" },
          { text: "contents" },
          { text: "[Result of tool pic (call t2), an error:]" },
          { image: { format: "gif", source: { bytes: bytes("GIF89a") } } },
        ],
      },
    ]);
    expect(warnings.map((warning) => warning.code)).toEqual(["tool-history-as-text"]);
  });
});

describe("prepareBedrockTools", () => {
  it("keeps object schemas, adds a missing type, opens what Bedrock rejects, and warns about tool choice none", () => {
    const prepared = prepareBedrockTools({
      tools: [
        { name: "plain", description: "", inputSchema: { properties: { a: { type: "string" } } } },
        {
          name: "union",
          description: "U",
          inputSchema: { anyOf: [{ type: "object" }], description: "either" },
        },
        { name: "plain", description: "again", inputSchema: { type: "object" } },
      ],
      toolChoice: "none",
      messages: [],
    });
    expect(prepared.toolConfig).toEqual({
      tools: [
        {
          toolSpec: {
            name: "plain",
            inputSchema: { json: { properties: { a: { type: "string" } }, type: "object" } },
          },
        },
        {
          toolSpec: {
            name: "union",
            description: "U",
            inputSchema: { json: { type: "object", description: "either" } },
          },
        },
      ],
    });
    // Duplicate names are settled first (prepareToolNames), before any schema is looked at.
    expect(prepared.warnings.map((warning) => warning.code)).toEqual([
      "tool-duplicate-name",
      "tool-schema-unsupported",
      "tool-choice-unsupported",
    ]);
  });
});
