import type { ToolResultPart } from "@junction/types";
import { describe, expect, it } from "vitest";
import {
  describeResourceLink,
  omittedPartNote,
  resourceLinkText,
  textInPlaceOf,
} from "./content-part-notes.js";

describe("describeResourceLink and resourceLinkText", () => {
  it("name and URI, then MIME type and description in parentheses", () => {
    const link = {
      uri: "file:///data.csv",
      name: "data.csv",
      mimeType: "text/csv",
      description: "the raw data",
    };
    expect(describeResourceLink(link)).toBe("data.csv <file:///data.csv> (text/csv, the raw data)");
    expect(resourceLinkText(link)).toBe(
      "Resource link: data.csv <file:///data.csv> (text/csv, the raw data)",
    );
  });

  it("only the details there are, and no parentheses without any", () => {
    expect(describeResourceLink({ uri: "https://x.test/doc", name: "doc", description: "A doc" })).toBe(
      "doc <https://x.test/doc> (A doc)",
    );
    expect(resourceLinkText({ uri: "file:///big.csv", name: "big.csv", mimeType: "text/csv" })).toBe(
      "Resource link: big.csv <file:///big.csv> (text/csv)",
    );
    expect(resourceLinkText({ uri: "file:///a", name: "a", mimeType: "", description: "" })).toBe(
      "Resource link: a <file:///a>",
    );
  });
});

describe("omittedPartNote", () => {
  it("a warning coded by place and kind, and the note for the model", () => {
    expect(
      omittedPartNote({
        provider: "Anthropic",
        where: "tool-result",
        what: "audio",
        description: "audio (audio/wav)",
      }),
    ).toEqual({
      warning: {
        code: "tool-result-audio-unsupported",
        message:
          "Anthropic cannot take audio (audio/wav) in a tool result; a text note was sent in its place.",
      },
      text: "[audio (audio/wav) omitted: not supported by this model provider]",
    });
  });

  it("names a user message for user content", () => {
    const note = omittedPartNote({
      provider: "Bedrock",
      where: "user-content",
      what: "image-type",
      description: "an image of type image/bmp",
    });
    expect(note.warning).toEqual({
      code: "user-content-image-type-unsupported",
      message:
        "Bedrock cannot take an image of type image/bmp in a user message; a text note was sent in its place.",
    });
    expect(note.text).toBe("[an image of type image/bmp omitted: not supported by this model provider]");
  });
});

describe("textInPlaceOf", () => {
  const place = { provider: "Acme", where: "tool-result" } as const;

  it("keeps text and writes links and resources without contents as lines, without a warning", () => {
    expect(textInPlaceOf({ type: "text", text: "hello" }, place)).toEqual({ text: "hello" });
    expect(
      textInPlaceOf(
        { type: "resource_link", uri: "file:///a.md", name: "a.md", mimeType: "text/markdown" },
        place,
      ),
    ).toEqual({ text: "Resource link: a.md <file:///a.md> (text/markdown)" });
    expect(textInPlaceOf({ type: "resource", resource: { uri: "file:///empty" } }, place)).toEqual({
      text: "Resource: <file:///empty>",
    });
    expect(
      textInPlaceOf({ type: "resource", resource: { uri: "file:///n.txt", text: "notes" } }, place),
    ).toEqual({
      text: "Resource: <file:///n.txt>\nnotes",
    });
  });

  it("notes an image, audio and a binary resource as left out, with a warning each", () => {
    expect(textInPlaceOf({ type: "image", data: "AAAA", mimeType: "image/bmp" }, place)).toEqual({
      text: "[an image of type image/bmp omitted: not supported by this model provider]",
      warning: {
        code: "tool-result-image-type-unsupported",
        message:
          "Acme cannot take an image of type image/bmp in a tool result; a text note was sent in its place.",
      },
    });
    expect(textInPlaceOf({ type: "audio", data: "AAAA", mimeType: "audio/wav" }, place).warning?.code).toBe(
      "tool-result-audio-unsupported",
    );
    expect(
      textInPlaceOf(
        { type: "resource", resource: { uri: "file:///a.zip", blob: "AAAA" } },
        { ...place, where: "user-content" },
      ),
    ).toEqual({
      text: "[the resource file:///a.zip (application/octet-stream) omitted: not supported by this model provider]",
      warning: {
        code: "user-content-resource-unsupported",
        message:
          "Acme cannot take the resource file:///a.zip (application/octet-stream) in a user message; a text note was sent in its place.",
      },
    });
  });

  it("notes a part of a type it does not know (untrusted input) instead of dropping it", () => {
    const part = { type: "video", data: "AAAA" } as unknown as ToolResultPart;
    expect(textInPlaceOf(part, place)).toEqual({
      text: '[a part of type "video" omitted: not supported by this model provider]',
      warning: {
        code: "tool-result-part-unsupported",
        message:
          'Acme cannot take a part of type "video" in a tool result; a text note was sent in its place.',
      },
    });
  });
});
