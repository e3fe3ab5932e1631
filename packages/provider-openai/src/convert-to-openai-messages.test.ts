import { COMMON_TOOL_NAME_RULE, createToolNameMapping, type Message } from "@junction/types";
import { describe, expect, it } from "vitest";
import { convertToOpenAIMessages } from "./convert-to-openai-messages.js";

const names = createToolNameMapping(["search", "get-tiny-image"], COMMON_TOOL_NAME_RULE);
const convert = (messages: Message[]) => convertToOpenAIMessages({ messages, toolNames: names });

describe("convertToOpenAIMessages", () => {
  it("sends user text, images and PDFs natively", () => {
    const { input, warnings } = convert([
      {
        role: "user",
        content: [
          { type: "text", text: "What is in these?" },
          { type: "image", data: "aW1n", mimeType: "image/jpeg" },
          {
            type: "resource",
            resource: { uri: "file:///docs/report.pdf", mimeType: "application/pdf", blob: "cGRm" },
          },
        ],
      },
    ]);
    expect(warnings).toEqual([]);
    expect(input).toEqual([
      {
        role: "user",
        content: [
          { type: "input_text", text: "What is in these?" },
          { type: "input_image", image_url: "data:image/jpeg;base64,aW1n", detail: "auto" },
          { type: "input_file", filename: "report.pdf", file_data: "data:application/pdf;base64,cGRm" },
        ],
      },
    ]);
  });

  it("keeps a string tool output a string and turns a ToolResult into input items", () => {
    const { input, warnings } = convert([
      {
        role: "tool",
        content: [
          { type: "tool-result", toolCallId: "call_1", toolName: "search", output: "plain text" },
          {
            type: "tool-result",
            toolCallId: "call_2",
            toolName: "search",
            output: {
              isError: false,
              content: [
                { type: "text", text: "found" },
                { type: "image", data: "cG5n", mimeType: "image/png" },
                {
                  type: "resource",
                  resource: { uri: "memo://note", mimeType: "text/plain", text: "note body" },
                },
                {
                  type: "resource",
                  resource: { uri: "file:///a.pdf", mimeType: "application/pdf", blob: "cGRm" },
                },
                {
                  type: "resource",
                  resource: { uri: "file:///pic.gif", mimeType: "image/gif", blob: "Z2lm" },
                },
                {
                  type: "resource_link",
                  uri: "file:///data.csv",
                  name: "data.csv",
                  mimeType: "text/csv",
                  description: "the raw data",
                },
              ],
            },
          },
        ],
      },
    ]);
    expect(warnings).toEqual([]);
    expect(input).toEqual([
      { type: "function_call_output", call_id: "call_1", output: "plain text" },
      {
        type: "function_call_output",
        call_id: "call_2",
        output: [
          { type: "input_text", text: "found" },
          { type: "input_image", image_url: "data:image/png;base64,cG5n" },
          { type: "input_text", text: "[resource memo://note]\nnote body" },
          { type: "input_file", filename: "a.pdf", file_data: "data:application/pdf;base64,cGRm" },
          { type: "input_image", image_url: "data:image/gif;base64,Z2lm" },
          {
            type: "input_text",
            text: "[resource link: data.csv <file:///data.csv> (text/csv, the raw data)]",
          },
        ],
      },
    ]);
  });

  it("marks an error result and carries structured content when there is no content", () => {
    const { input } = convert([
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "call_e",
            toolName: "search",
            output: { isError: true, content: [{ type: "text", text: "index offline" }] },
          },
          {
            type: "tool-result",
            toolCallId: "call_s",
            toolName: "search",
            output: { isError: false, content: [], structuredContent: { hits: 3 } },
          },
          {
            type: "tool-result",
            toolCallId: "call_n",
            toolName: "search",
            output: { isError: false, content: [] },
          },
        ],
      },
    ]);
    expect(input).toEqual([
      {
        type: "function_call_output",
        call_id: "call_e",
        output: [
          { type: "input_text", text: "The tool call failed." },
          { type: "input_text", text: "index offline" },
        ],
      },
      {
        type: "function_call_output",
        call_id: "call_s",
        output: [{ type: "input_text", text: '{"hits":3}' }],
      },
      { type: "function_call_output", call_id: "call_n", output: "" },
    ]);
  });

  it("sends structuredContent only when no text part mirrors it, an image-only result included", () => {
    const weather = { temperature: 36, humidity: 82 };
    const { input } = convert([
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "call_t",
            toolName: "search",
            output: {
              isError: false,
              content: [{ type: "text", text: JSON.stringify(weather) }],
              structuredContent: weather,
            },
          },
          {
            type: "tool-result",
            toolCallId: "call_i",
            toolName: "search",
            output: {
              isError: false,
              content: [{ type: "image", data: "cG5n", mimeType: "image/png" }],
              structuredContent: weather,
            },
          },
        ],
      },
    ]);
    expect(input).toEqual([
      {
        type: "function_call_output",
        call_id: "call_t",
        output: [{ type: "input_text", text: '{"temperature":36,"humidity":82}' }],
      },
      {
        type: "function_call_output",
        call_id: "call_i",
        output: [
          { type: "input_image", image_url: "data:image/png;base64,cG5n" },
          { type: "input_text", text: '{"temperature":36,"humidity":82}' },
        ],
      },
    ]);
  });

  it("warns about audio and unsupported binary resources, leaving a note instead of dropping them", () => {
    const { input, warnings } = convert([
      { role: "user", content: [{ type: "audio", data: "YXVk", mimeType: "audio/wav" }] },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "call_a",
            toolName: "search",
            output: {
              isError: false,
              content: [
                { type: "audio", data: "YXVk", mimeType: "audio/mpeg" },
                {
                  type: "resource",
                  resource: { uri: "file:///x.zip", mimeType: "application/zip", blob: "emlw" },
                },
              ],
            },
          },
        ],
      },
    ]);
    expect(input).toEqual([
      {
        role: "user",
        content: [
          { type: "input_text", text: "[audio (audio/wav) omitted: not supported by this model API]" },
        ],
      },
      {
        type: "function_call_output",
        call_id: "call_a",
        output: [
          { type: "input_text", text: "[audio (audio/mpeg) omitted: not supported by this model API]" },
          { type: "input_text", text: "[resource file:///x.zip (application/zip) omitted]" },
        ],
      },
    ]);
    expect(warnings.map((warning) => warning.code)).toEqual([
      "user-audio-unsupported",
      "tool-result-audio-unsupported",
      "resource-unsupported",
    ]);
    expect(warnings[2]!.message).toBe(
      "tool result call_a: resource file:///x.zip (application/zip) has no form OpenAI accepts; replaced with a text note.",
    );
  });

  it("echoes assistant text with its item id and phase, and groups reasoning parts of one item", () => {
    const { input, warnings } = convert([
      {
        role: "assistant",
        content: [
          {
            type: "reasoning",
            text: "First idea.",
            providerMetadata: { openai: { itemId: "rs_1", encryptedContent: "enc" } },
          },
          { type: "reasoning", text: "Second idea.", providerMetadata: { openai: { itemId: "rs_1" } } },
          {
            type: "text",
            text: "Let me look.",
            providerMetadata: { openai: { itemId: "msg_1", phase: "commentary" } },
          },
          {
            type: "tool-call",
            id: "call_1",
            name: "search",
            input: { q: "x" },
            providerMetadata: { openai: { itemId: "fc_1" } },
          },
        ],
      },
      { role: "assistant", content: [{ type: "text", text: "From another provider." }] },
    ]);
    expect(warnings).toEqual([]);
    expect(input).toEqual([
      {
        type: "reasoning",
        id: "rs_1",
        summary: [
          { type: "summary_text", text: "First idea." },
          { type: "summary_text", text: "Second idea." },
        ],
        encrypted_content: "enc",
      },
      {
        type: "message",
        role: "assistant",
        id: "msg_1",
        status: "completed",
        phase: "commentary",
        content: [{ type: "output_text", text: "Let me look.", annotations: [] }],
      },
      { type: "function_call", call_id: "call_1", name: "search", arguments: '{"q":"x"}', id: "fc_1" },
      { role: "assistant", content: "From another provider." },
    ]);
  });

  it("warns about reasoning OpenAI cannot take back (from another provider)", () => {
    const { input, warnings } = convert([
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "thinking", providerMetadata: { anthropic: { signature: "sig" } } },
          { type: "text", text: "Answer." },
        ],
      },
    ]);
    expect(input).toEqual([{ role: "assistant", content: "Answer." }]);
    expect(warnings).toEqual([
      {
        code: "reasoning-not-sent",
        message:
          "Message 0: reasoning without OpenAI item metadata (from another provider) cannot be sent to OpenAI; left out.",
      },
    ]);
  });

  it("warns about content of unknown type from a restored conversation instead of crashing", () => {
    const messages = JSON.parse(
      '[{"role":"user","content":[{"type":"video","url":"x"}]},{"role":"system","content":"x"}]',
    ) as Message[];
    const { input, warnings } = convert(messages);
    expect(input).toEqual([{ role: "user", content: [] }]);
    expect(warnings).toEqual([
      { code: "content-unsupported", message: 'message 0: content of unknown type "video"; not sent.' },
      { code: "message-unsupported", message: 'Message 1 has an unknown role "system"; not sent.' },
    ]);
  });

  it("sends an approval only with a boolean answer, and only from the last assistant message", () => {
    const request = { id: "mcpr_1", serverLabel: "docs", name: "search", arguments: '{"q":"x"}' };
    const approvalTurn = (answer: unknown): Message => ({
      role: "assistant",
      content: [
        {
          type: "text",
          text: "",
          providerMetadata: { openai: { mcpApprovalRequest: request, mcpApprovalResponse: answer } },
        },
      ],
    });
    const requestItem = {
      type: "mcp_approval_request",
      id: "mcpr_1",
      server_label: "docs",
      name: "search",
      arguments: '{"q":"x"}',
    };

    // "yes" is not an answer: nothing runs without an explicit approve: true.
    const unanswered = convert([{ role: "user", content: "Go" }, approvalTurn({ approve: "yes" })]);
    expect(unanswered.input).toEqual([{ role: "user", content: "Go" }]);
    expect(unanswered.warnings.map((warning) => warning.code)).toEqual(["mcp-approval-unanswered"]);

    const approved = convert([{ role: "user", content: "Go" }, approvalTurn({ approve: true, reason: 42 })]);
    expect(approved.warnings).toEqual([]);
    expect(approved.input).toEqual([
      { role: "user", content: "Go" },
      requestItem,
      { type: "mcp_approval_response", approval_request_id: "mcpr_1", approve: true },
    ]);

    const older = convert([
      { role: "user", content: "Go" },
      approvalTurn({ approve: true }),
      { role: "assistant", content: [{ type: "text", text: "Done." }] },
    ]);
    expect(older.warnings).toEqual([]);
    expect(older.input).toEqual([
      { role: "user", content: "Go" },
      { role: "assistant", content: "Done." },
    ]);
  });
});
