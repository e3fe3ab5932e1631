import { describe, expect, it } from "vitest";
import { describeResourceLink, omittedPartNote, resourceLinkText } from "./content-part-notes.js";

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
