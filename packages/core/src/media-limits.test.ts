import type { Message, ModelProvider, ProviderCapabilities, Warning } from "@junction/types";
import { describe, expect, it } from "vitest";
import {
  base64DecodedBytes,
  DEFAULT_MAX_MEDIA_PART_BYTES,
  messagesForModel,
  modelFacingMessages,
  oversizedMediaWarning,
} from "./media-limits.js";
import { scriptedModel } from "./testing/index.js";

/** Base64 text that decodes to exactly `bytes` bytes. */
function base64Of(bytes: number): string {
  return Buffer.alloc(bytes, 7).toString("base64");
}

function toolMessage(parts: unknown[], toolCallId = "c1", toolName = "snap"): Message {
  return {
    role: "tool",
    content: [
      { type: "tool-result", toolCallId, toolName, output: { content: parts as never, isError: false } },
    ],
  };
}

describe("base64DecodedBytes", () => {
  it("counts decoded bytes from the length and the padding, as Buffer does", () => {
    for (const bytes of [0, 1, 2, 3, 4, 5, 1000, 1001, 1002]) {
      expect(base64DecodedBytes(base64Of(bytes))).toBe(bytes);
    }
  });
});

describe("modelFacingMessages", () => {
  it("replaces each kind of part over its limit with a note, keeps one at the limit, leaves the raw messages untouched", () => {
    const user: Message = {
      role: "user",
      content: [{ type: "image", data: base64Of(10), mimeType: "image/png" }],
    };
    const plain: Message = {
      role: "tool",
      content: [{ type: "tool-result", toolCallId: "c0", toolName: "echo", output: "just text" }],
    };
    const media = toolMessage([
      { type: "image", data: base64Of(10), mimeType: "image/png" },
      { type: "image", data: base64Of(11), mimeType: "image/jpeg" },
      { type: "audio", data: base64Of(21), mimeType: "audio/wav" },
      {
        type: "resource",
        resource: { uri: "file:///a.pdf", mimeType: "application/pdf", blob: base64Of(31) },
      },
      { type: "resource", resource: { uri: "file:///a.txt", text: "t".repeat(1000) } },
    ]);
    const raw = [user, plain, media];
    const snapshot = structuredClone(raw);
    const view = modelFacingMessages(raw, { maxImageBytes: 10, maxAudioBytes: 20, maxDocumentBytes: 30 });

    expect(raw).toEqual(snapshot);
    expect(view.messages[0]).toBe(user);
    expect(view.messages[1]).toBe(plain);
    const note = (what: string, bytes: number, [limit, kind]: [number, string]) =>
      `[The tool returned ${what} of ${bytes} bytes, over the ${limit}-byte limit for one ${kind} sent to this model, ` +
      "so Junction left it out here; the application still has it. If you need to see it, ask the tool for a smaller one.]";
    expect(view.messages[2]).toEqual(
      toolMessage([
        { type: "image", data: base64Of(10), mimeType: "image/png" },
        { type: "text", text: note("an image (image/jpeg)", 11, [10, "image"]) },
        { type: "text", text: note("an audio clip (audio/wav)", 21, [20, "audio"]) },
        { type: "text", text: note("a document (application/pdf)", 31, [30, "document"]) },
        { type: "resource", resource: { uri: "file:///a.txt", text: "t".repeat(1000) } },
      ]),
    );
    expect(
      view.oversized.map(({ kind, bytes, limit, declared, toolCallId, toolName }) => [
        kind,
        bytes,
        limit,
        declared,
        toolCallId,
        toolName,
      ]),
    ).toEqual([
      ["image", 11, 10, true, "c1", "snap"],
      ["audio", 21, 20, true, "c1", "snap"],
      ["document", 31, 30, true, "c1", "snap"],
    ]);
  });

  it("nothing over the limit: the very same array; no declared limit: the 5 MiB default", () => {
    const small = [toolMessage([{ type: "image", data: base64Of(100), mimeType: "image/png" }])];
    expect(modelFacingMessages(small, undefined)).toEqual({ messages: small, oversized: [] });
    expect(modelFacingMessages(small, undefined).messages).toBe(small);

    const big = [
      toolMessage([
        { type: "audio", data: base64Of(DEFAULT_MAX_MEDIA_PART_BYTES + 1), mimeType: "audio/wav" },
      ]),
    ];
    const view = modelFacingMessages(big, { maxImageBytes: 1 });
    expect(view.oversized.map(({ kind, limit, declared }) => [kind, limit, declared])).toEqual([
      ["audio", DEFAULT_MAX_MEDIA_PART_BYTES, false],
    ]);
  });
});

describe("modelFacingMessages: user messages", () => {
  it("replaces a user's image over the limit with a note, keeps the rest and the raw message, and warns naming the message", () => {
    const image = { type: "image" as const, data: base64Of(2_000), mimeType: "image/png" };
    const raw: Message[] = [
      { role: "user", content: "plain text stays" },
      { role: "user", content: [{ type: "text", text: "What is this?" }, image] },
    ];
    const view = modelFacingMessages(raw, { maxImageBytes: 1_000 });
    expect(view.messages[0]).toBe(raw[0]);
    expect(view.messages[1]).toEqual({
      role: "user",
      content: [
        { type: "text", text: "What is this?" },
        {
          type: "text",
          text: "[The user's message had an image (image/png) of 2000 bytes, over the 1000-byte limit for one image sent to this model, so Junction left it out here. Tell the user it was too large to look at.]",
        },
      ],
    });
    expect((raw[1]!.content as unknown[])[1]).toBe(image);
    expect(view.oversized).toHaveLength(1);
    expect(oversizedMediaWarning(view.oversized[0]!, { provider: "vendor", model: "small" })).toEqual({
      code: "user-media-too-large",
      message:
        'User message 1 has an image (image/png) of 2000 bytes, over 1000 bytes, the limit provider "vendor" declares for model "small"; the model got a note instead (the conversation keeps the part). Send a smaller one (resize or compress it) for the model to see it.',
    });
  });
});

describe("messagesForModel", () => {
  /** A provider whose capabilities are `general`, and `perModel` for every model where given. */
  function provider(
    general: Partial<ProviderCapabilities>,
    perModel?: Partial<ProviderCapabilities>,
  ): ModelProvider {
    const model = scriptedModel({ responses: [], name: "vendor", capabilities: general });
    const capabilitiesFor = () => ({ ...model.capabilities, ...perModel });
    return {
      name: model.name,
      capabilities: model.capabilities,
      stream: model.stream,
      ...(perModel ? { capabilitiesFor } : {}),
    };
  }

  it("uses the model's own capabilities, and reports each part once however often the history is sent", () => {
    const history = [toolMessage([{ type: "image", data: base64Of(200), mimeType: "image/png" }])];
    const warnings: Warning[] = [];
    const warn = (warning: Warning) => warnings.push(warning);
    const vendor = provider(
      { mediaLimits: { maxImageBytes: 1_000 } },
      { mediaLimits: { maxImageBytes: 100 } },
    );

    const first = messagesForModel({ history, provider: vendor, model: "small", warn });
    const again = messagesForModel({ history, provider: vendor, model: "small", warn });
    expect(first).toEqual(again);
    expect(
      (first[0]!.content[0] as { output: { content: { type: string }[] } }).output.content[0]!.type,
    ).toBe("text");
    expect(warnings).toEqual([
      {
        code: "tool-result-media-too-large",
        message:
          'Tool "snap" (call c1) returned an image (image/png) of 200 bytes, over 100 bytes, the limit provider "vendor" declares for model "small"; ' +
          "the model got a note instead. The full result stays in the conversation and the tool-result event.",
      },
    ]);

    // Another history (a restored copy) is another set of parts: reported again, once.
    messagesForModel({ history: structuredClone(history), provider: vendor, model: "small", warn });
    expect(warnings).toHaveLength(2);
    // Within the provider's general limit: sent as it is.
    expect(
      messagesForModel({
        history,
        provider: provider({ mediaLimits: { maxImageBytes: 1_000 } }),
        model: "m",
        warn,
      }),
    ).toBe(history);
  });
});
