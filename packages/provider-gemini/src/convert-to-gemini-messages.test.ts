import type { Message, ToolResult } from "@junction/types";
import { describe, expect, it } from "vitest";
import { convertToGeminiMessages, GEMINI_SKIP_THOUGHT_SIGNATURE } from "./convert-to-gemini-messages.js";
import { createGeminiToolNameMapping } from "./prepare-gemini-tools.js";

const options = (multimodalFunctionResponses: boolean, requireThoughtSignatures = false) => ({
  toolNames: createGeminiToolNameMapping(["lookup", "9tool"]),
  multimodalFunctionResponses,
  requireThoughtSignatures,
});

describe("convertToGeminiMessages", () => {
  it("converts user content blocks: text, image, audio, resources and links", () => {
    const result = convertToGeminiMessages(
      "Be helpful.",
      [
        {
          role: "user",
          content: [
            { type: "text", text: "Look:" },
            { type: "image", data: "aW1n", mimeType: "image/jpeg" },
            { type: "audio", data: "YXVk", mimeType: "audio/wav" },
            {
              type: "resource",
              resource: { uri: "file:///notes.md", mimeType: "text/markdown", text: "# Notes" },
            },
            {
              type: "resource",
              resource: { uri: "file:///doc.pdf", mimeType: "application/pdf", blob: "cGRm" },
            },
            {
              type: "resource",
              resource: { uri: "file:///a.zip", mimeType: "application/zip", blob: "emlw" },
            },
            { type: "resource_link", uri: "https://example.com/x", name: "x", description: "An example" },
          ],
        },
      ],
      options(true),
    );
    expect(result.systemInstruction).toEqual({ parts: [{ text: "Be helpful." }] });
    expect(result.contents).toEqual([
      {
        role: "user",
        parts: [
          { text: "Look:" },
          { inlineData: { mimeType: "image/jpeg", data: "aW1n" } },
          { inlineData: { mimeType: "audio/wav", data: "YXVk" } },
          { text: "[resource file:///notes.md]\n# Notes" },
          { inlineData: { mimeType: "application/pdf", data: "cGRm" } },
          { text: "[resource file:///a.zip (application/zip) could not be included]" },
          { text: "[resource link: x <https://example.com/x> An example]" },
        ],
      },
    ]);
    expect(result.warnings).toEqual([
      {
        code: "user-resource-unsupported",
        message:
          "The resource file:///a.zip (application/zip) cannot be sent to Gemini inline; the model is told only its URI.",
      },
    ]);
  });

  it("echoes reasoning, text and call signatures, maps tool names, and omits generated ids", () => {
    const messages: Message[] = [
      { role: "user", content: "q" },
      {
        role: "assistant",
        content: [
          {
            type: "reasoning",
            text: "thinking",
            providerMetadata: { gemini: { thoughtSignature: "r-sig" } },
          },
          { type: "text", text: "", providerMetadata: { gemini: { thoughtSignature: "t-sig" } } },
          { type: "text", text: "" },
          {
            type: "tool-call",
            id: "resp-0",
            name: "9tool",
            input: { a: 1 },
            providerMetadata: { gemini: { thoughtSignature: "c-sig", generatedId: true } },
          },
          { type: "tool-call", id: "vendor-id", name: "lookup", input: "not an object" },
        ],
      },
      {
        role: "tool",
        content: [
          { type: "tool-result", toolCallId: "resp-0", toolName: "9tool", output: "one" },
          { type: "tool-result", toolCallId: "vendor-id", toolName: "lookup", output: "two" },
        ],
      },
      { role: "user", content: "thanks" },
    ];
    const result = convertToGeminiMessages(undefined, messages, options(true));
    expect(result.systemInstruction).toBeUndefined();
    expect(result.contents).toEqual([
      { role: "user", parts: [{ text: "q" }] },
      {
        role: "model",
        parts: [
          { text: "thinking", thought: true, thoughtSignature: "r-sig" },
          { text: "", thoughtSignature: "t-sig" },
          { functionCall: { name: "_9tool", args: { a: 1 } }, thoughtSignature: "c-sig" },
          { functionCall: { id: "vendor-id", name: "lookup", args: { value: "not an object" } } },
        ],
      },
      {
        role: "user",
        parts: [
          { functionResponse: { name: "_9tool", response: { output: "one" } } },
          { functionResponse: { id: "vendor-id", name: "lookup", response: { output: "two" } } },
          { text: "thanks" },
        ],
      },
    ]);
    expect(result.warnings.map((warning) => warning.code)).toEqual(["tool-call-input-not-object"]);
  });

  it("adds Gemini's documented placeholder signature to the first unsigned call of a turn when required", () => {
    const result = convertToGeminiMessages(
      undefined,
      [
        { role: "user", content: "q" },
        {
          role: "assistant",
          content: [
            { type: "tool-call", id: "a", name: "lookup", input: {} },
            { type: "tool-call", id: "b", name: "lookup", input: {} },
          ],
        },
      ],
      options(true, true),
    );
    expect(result.contents[1]?.parts).toEqual([
      {
        functionCall: { id: "a", name: "lookup", args: {} },
        thoughtSignature: GEMINI_SKIP_THOUGHT_SIGNATURE,
      },
      { functionCall: { id: "b", name: "lookup", args: {} } },
    ]);
    expect(result.warnings.map((warning) => warning.code)).toEqual(["thought-signature-missing"]);
  });

  it("carries tool-result media natively, beside the response, or as a warning, by type", () => {
    const messages: Message[] = [
      { role: "user", content: "q" },
      { role: "assistant", content: [{ type: "tool-call", id: "c", name: "lookup", input: {} }] },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "c",
            toolName: "lookup",
            output: {
              content: [
                { type: "text", text: "Results:" },
                { type: "image", data: "cG5n", mimeType: "image/png" },
                { type: "image", data: "Z2lm", mimeType: "image/gif" },
                { type: "audio", data: "d2F2", mimeType: "audio/wav" },
                {
                  type: "resource",
                  resource: { uri: "file:///r.pdf", mimeType: "application/pdf", blob: "cGRm" },
                },
                { type: "resource", resource: { uri: "file:///r.txt", text: "plain" } },
                {
                  type: "resource",
                  resource: { uri: "file:///r.bin", mimeType: "application/octet-stream", blob: "Ymlu" },
                },
                { type: "resource_link", uri: "file:///big.csv", name: "big.csv" },
              ],
              isError: false,
              structuredContent: { count: 3 },
            },
          },
        ],
      },
    ];
    const native = convertToGeminiMessages(undefined, messages, options(true));
    expect(native.contents[2]).toEqual({
      role: "user",
      parts: [
        {
          functionResponse: {
            id: "c",
            name: "lookup",
            response: {
              // The text part "Results:" stands for the structured content: the model gets the text only.
              output:
                "Results:\n[resource file:///r.txt]\nplain\n[application/octet-stream content could not be included]\n[resource link: big.csv <file:///big.csv>]",
            },
            parts: [
              { inlineData: { mimeType: "image/png", data: "cG5n" } },
              { inlineData: { mimeType: "application/pdf", data: "cGRm" } },
            ],
          },
        },
        { inlineData: { mimeType: "image/gif", data: "Z2lm" } },
        { inlineData: { mimeType: "audio/wav", data: "d2F2" } },
      ],
    });
    expect(native.warnings.map((warning) => warning.code)).toEqual([
      "tool-result-media-beside-response",
      "tool-result-media-beside-response",
      "tool-result-part-unsupported",
    ]);

    const fallback = convertToGeminiMessages(undefined, messages, options(false));
    expect(fallback.contents[2]?.parts?.slice(1)).toEqual([
      { inlineData: { mimeType: "image/png", data: "cG5n" } },
      { inlineData: { mimeType: "image/gif", data: "Z2lm" } },
      { inlineData: { mimeType: "audio/wav", data: "d2F2" } },
      { inlineData: { mimeType: "application/pdf", data: "cGRm" } },
    ]);
    expect(fallback.contents[2]?.parts?.[0]?.functionResponse?.parts).toBeUndefined();
  });

  it("sends content to the model, and structuredContent only when no text part mirrors it", () => {
    const weather = { temperature: 36, conditions: "Light rain / drizzle", humidity: 82 };
    const results: { id: string; output: ToolResult }[] = [
      {
        id: "text-and-structured",
        output: {
          content: [{ type: "text", text: JSON.stringify(weather) }],
          isError: false,
          structuredContent: weather,
        },
      },
      { id: "structured-only", output: { content: [], isError: false, structuredContent: weather } },
      {
        id: "error-text-and-structured",
        output: {
          content: [{ type: "text", text: "Chicago is not covered." }],
          isError: true,
          structuredContent: { code: "no-city" },
        },
      },
      {
        id: "error-structured-only",
        output: { content: [], isError: true, structuredContent: { code: "no-city" } },
      },
      {
        id: "image-link-and-structured",
        output: {
          content: [
            { type: "image", data: "cG5n", mimeType: "image/png" },
            { type: "resource_link", uri: "file:///radar.png", name: "radar.png" },
          ],
          isError: false,
          structuredContent: weather,
        },
      },
    ];
    const messages: Message[] = [
      { role: "user", content: "q" },
      {
        role: "assistant",
        content: results.map(({ id }) => ({ type: "tool-call", id, name: "lookup", input: {} })),
      },
      {
        role: "tool",
        content: results.map(({ id, output }) => ({
          type: "tool-result",
          toolCallId: id,
          toolName: "lookup",
          output,
        })),
      },
    ];
    const converted = convertToGeminiMessages(undefined, messages, options(true));
    expect(converted.contents[2]).toEqual({
      role: "user",
      parts: [
        {
          functionResponse: {
            id: "text-and-structured",
            name: "lookup",
            response: { output: '{"temperature":36,"conditions":"Light rain / drizzle","humidity":82}' },
          },
        },
        { functionResponse: { id: "structured-only", name: "lookup", response: { output: weather } } },
        {
          functionResponse: {
            id: "error-text-and-structured",
            name: "lookup",
            response: { error: "Chicago is not covered." },
          },
        },
        {
          functionResponse: {
            id: "error-structured-only",
            name: "lookup",
            response: { error: { code: "no-city" } },
          },
        },
        {
          functionResponse: {
            id: "image-link-and-structured",
            name: "lookup",
            response: {
              output: "[resource link: radar.png <file:///radar.png>]",
              structuredContent: weather,
            },
            parts: [{ inlineData: { mimeType: "image/png", data: "cG5n" } }],
          },
        },
      ],
    });
    expect(converted.warnings).toEqual([]);
  });
});
