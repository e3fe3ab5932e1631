import { COMMON_TOOL_NAME_RULE, createToolNameMapping, type Message, type ToolResult } from "@junction/types";
import { describe, expect, it } from "vitest";
import { convertToChatCompletionsMessages } from "./convert-to-chatcompletions-messages.js";

const toolNames = createToolNameMapping(["tool"], COMMON_TOOL_NAME_RULE);
const convert = (messages: Message[], extra: { system?: string; echoReasoning?: boolean } = {}) =>
  convertToChatCompletionsMessages({ messages, toolNames, providerName: "chatcompletions", ...extra });

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

const toolTurn = (output: string | ToolResult): Message[] => [
  { role: "assistant", content: [{ type: "tool-call", id: "call_1", name: "tool", input: {} }] },
  { role: "tool", content: [{ type: "tool-result", toolCallId: "call_1", toolName: "tool", output }] },
];

describe("convertToChatCompletionsMessages", () => {
  it("sends user images as image_url data URLs and wav/mp3 audio as input_audio", () => {
    const result = convert(
      deepFreeze([
        {
          role: "user",
          content: [
            { type: "text", text: "What is in these?" },
            { type: "image", data: "AAAA", mimeType: "image/jpeg" },
            { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
            { type: "audio", data: "SUQz", mimeType: "audio/mpeg" },
            { type: "resource_link", uri: "file:///notes.md", name: "notes.md", mimeType: "text/markdown" },
            { type: "resource", resource: { uri: "file:///a.txt", mimeType: "text/plain", text: "alpha" } },
          ],
        },
      ]),
      { system: "sys" },
    );
    expect(result).toEqual({
      messages: [
        { role: "system", content: "sys" },
        {
          role: "user",
          content: [
            { type: "text", text: "What is in these?" },
            { type: "image_url", image_url: { url: "data:image/jpeg;base64,AAAA" } },
            { type: "input_audio", input_audio: { data: "UklGRg==", format: "wav" } },
            { type: "input_audio", input_audio: { data: "SUQz", format: "mp3" } },
            { type: "text", text: "[resource link: notes.md <file:///notes.md> (text/markdown)]" },
            { type: "text", text: "[resource file:///a.txt]\nalpha" },
          ],
        },
      ],
      warnings: [],
    });
  });

  it("warns about user audio in formats the API does not take, leaving a note", () => {
    const result = convert([
      { role: "user", content: [{ type: "audio", data: "T2dnUw==", mimeType: "audio/ogg" }] },
    ]);
    expect(result).toEqual({
      messages: [{ role: "user", content: "[audio (audio/ogg) left out: unsupported format]" }],
      warnings: [
        {
          code: "user-audio-unsupported",
          message:
            "Chat Completions accepts only wav and mp3 audio; audio (audio/ogg) in a user message was left out with a note.",
        },
      ],
    });
  });

  it("keeps a string tool output exactly as it is", () => {
    const result = convert(toolTurn('{"temperature": 18}'));
    expect(result.messages.at(-1)).toEqual({
      role: "tool",
      tool_call_id: "call_1",
      content: '{"temperature": 18}',
    });
    expect(result.warnings).toEqual([]);
  });

  it("moves wav audio from a tool result to a following user message and warns", () => {
    const result = convert(
      toolTurn({ isError: false, content: [{ type: "audio", data: "UklGRg==", mimeType: "audio/wav" }] }),
    );
    expect(result.messages.slice(1)).toEqual([
      {
        role: "tool",
        tool_call_id: "call_1",
        content: "[audio (audio/wav) attached in the following user message]",
      },
      {
        role: "user",
        content: [
          { type: "text", text: "Attachments from the result of tool call call_1 (tool):" },
          { type: "input_audio", input_audio: { data: "UklGRg==", format: "wav" } },
        ],
      },
    ]);
    expect(result.warnings.map((warning) => warning.code)).toEqual(["tool-result-audio-unsupported"]);
  });

  it("replaces unsupported tool-result audio and binary resources with notes and warnings", () => {
    const result = convert(
      toolTurn({
        isError: true,
        content: [
          { type: "text", text: "partial" },
          { type: "audio", data: "T2dnUw==", mimeType: "audio/ogg" },
          {
            type: "resource",
            resource: { uri: "file:///r.pdf", mimeType: "application/pdf", blob: "JVBERi0=" },
          },
          { type: "resource", resource: { uri: "file:///p.png", mimeType: "image/png", blob: "iVBO" } },
        ],
      }),
    );
    expect(result.messages.slice(1)).toEqual([
      {
        role: "tool",
        tool_call_id: "call_1",
        content: [
          "partial",
          "[audio (audio/ogg) left out: unsupported format]",
          "[resource file:///r.pdf (application/pdf) left out: this model API cannot carry it]",
          "[resource file:///p.png: image (image/png) attached in the following user message]",
        ].join("\n"),
      },
      {
        role: "user",
        content: [
          { type: "text", text: "Attachments from the result of tool call call_1 (tool):" },
          { type: "image_url", image_url: { url: "data:image/png;base64,iVBO" } },
        ],
      },
    ]);
    expect(result.warnings.map((warning) => warning.code)).toEqual([
      "tool-result-audio-unsupported",
      "tool-result-resource-unsupported",
      "tool-result-image-unsupported",
    ]);
  });

  it("sends structuredContent as JSON when a result has no text", () => {
    const result = convert(toolTurn({ isError: false, content: [], structuredContent: { ok: true } }));
    expect(result.messages.at(-1)).toEqual({ role: "tool", tool_call_id: "call_1", content: '{"ok":true}' });
  });

  it("sends structuredContent only when no text part mirrors it, a text resource not counting as one", () => {
    const mirrored = convert(
      toolTurn({
        isError: false,
        content: [{ type: "text", text: "ok: yes" }],
        structuredContent: { ok: true },
      }),
    );
    expect(mirrored.messages.at(-1)).toEqual({ role: "tool", tool_call_id: "call_1", content: "ok: yes" });

    const resourceOnly = convert(
      toolTurn({
        isError: false,
        content: [
          { type: "resource", resource: { uri: "file:///a.txt", mimeType: "text/plain", text: "alpha" } },
        ],
        structuredContent: { ok: true },
      }),
    );
    expect(resourceOnly.messages.at(-1)).toEqual({
      role: "tool",
      tool_call_id: "call_1",
      content: '[resource file:///a.txt]\nalpha\n{"ok":true}',
    });
  });

  it("drops reasoning from history by default and echoes it in its own field when asked", () => {
    const history: Message[] = [
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "Hmm.", providerMetadata: { chatcompletions: { field: "reasoning" } } },
          { type: "text", text: "Answer" },
        ],
      },
    ];
    expect(convert(history).messages).toEqual([{ role: "assistant", content: "Answer" }]);
    expect(convert(history, { echoReasoning: true }).messages).toEqual([
      { role: "assistant", content: "Answer", reasoning: "Hmm." },
    ]);
  });

  it("sends arguments that were not valid JSON back as the raw text", () => {
    const result = convert([
      { role: "assistant", content: [{ type: "tool-call", id: "c", name: "tool", input: '{"a":' }] },
    ]);
    expect(result.messages).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c", type: "function", function: { name: "tool", arguments: '{"a":' } }],
      },
    ]);
  });
});
