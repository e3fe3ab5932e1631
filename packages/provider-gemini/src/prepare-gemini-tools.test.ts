import { describe, expect, it } from "vitest";
import {
  createGeminiToolNameMapping,
  GEMINI_TOOL_NAME_RULE,
  prepareGeminiTools,
} from "./prepare-gemini-tools.js";

const schema = { type: "object", properties: {} };

describe("prepareGeminiTools", () => {
  it("declares a name once: a second tool with it is left out with a warning", () => {
    const prepared = prepareGeminiTools({
      tools: [
        { name: "9lives", description: "first", inputSchema: schema },
        { name: "9lives", description: "second", inputSchema: schema },
      ],
    });
    expect(prepared.tools).toEqual([
      { functionDeclarations: [{ name: "_9lives", description: "first", parametersJsonSchema: schema }] },
    ]);
    expect(prepared.toolNames.fromVendor("_9lives")).toBe("9lives");
    expect(prepared.warnings).toEqual([
      {
        code: "tool-duplicate-name",
        message: 'Two tools are named "9lives"; only the first is sent to Gemini.',
      },
    ]);
  });

  it("keeps names Gemini accepts (dots, colons, dashes) and fixes the others reversibly", () => {
    const names = [
      "fs.read_file",
      "server:tool",
      "get-tiny-image",
      "2fa code",
      "9lives",
      `${"x".repeat(70)}`,
    ];
    const mapping = createGeminiToolNameMapping(names);
    expect(mapping.toVendor("fs.read_file")).toBe("fs.read_file");
    expect(mapping.toVendor("server:tool")).toBe("server:tool");
    expect(mapping.toVendor("get-tiny-image")).toBe("get-tiny-image");
    for (const name of names) {
      const vendorName = mapping.toVendor(name);
      expect(vendorName).toMatch(/^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/);
      expect(mapping.fromVendor(vendorName)).toBe(name);
    }
    expect(mapping.toVendor("9lives")).toBe("_9lives");
    expect(new Set(names.map((name) => mapping.toVendor(name))).size).toBe(names.length);
    expect(GEMINI_TOOL_NAME_RULE.maxLength).toBe(64);
  });

  it("keeps a leading-underscore fix distinct from a real tool of that name", () => {
    const mapping = createGeminiToolNameMapping(["_9lives", "9lives"]);
    expect(mapping.toVendor("_9lives")).toBe("_9lives");
    expect(mapping.toVendor("9lives")).toBe("_9lives_2");
    expect(mapping.fromVendor("_9lives_2")).toBe("9lives");
  });

  it("maps names of earlier calls in the history, declares tools and sets the tool choice", () => {
    const prepared = prepareGeminiTools({
      tools: [{ name: "files read", description: "Read a file", inputSchema: schema }],
      toolChoice: { type: "tool", name: "files read" },
      messages: [
        { role: "assistant", content: [{ type: "tool-call", id: "1", name: "old tool!", input: {} }] },
        {
          role: "tool",
          content: [{ type: "tool-result", toolCallId: "1", toolName: "old tool!", output: "ok" }],
        },
      ],
    });
    const vendorName = prepared.toolNames.toVendor("files read");
    expect(vendorName).toMatch(/^files_read_[a-z0-9]+$/);
    expect(prepared.toolNames.fromVendor(prepared.toolNames.toVendor("old tool!"))).toBe("old tool!");
    expect(prepared.tools).toEqual([
      {
        functionDeclarations: [
          { name: vendorName, description: "Read a file", parametersJsonSchema: schema },
        ],
      },
    ]);
    expect(prepared.toolConfig).toEqual({
      functionCallingConfig: { mode: "ANY", allowedFunctionNames: [vendorName] },
    });
    expect(prepared.warnings).toEqual([]);
  });

  it("maps each tool choice and warns about an unknown tool", () => {
    const tools = [{ name: "a", description: "", inputSchema: schema }];
    expect(prepareGeminiTools({ tools, toolChoice: "none" }).toolConfig).toEqual({
      functionCallingConfig: { mode: "NONE" },
    });
    expect(prepareGeminiTools({ tools, toolChoice: "required" }).toolConfig).toEqual({
      functionCallingConfig: { mode: "ANY" },
    });
    const unknown = prepareGeminiTools({ tools, toolChoice: { type: "tool", name: "b" } });
    expect(unknown.toolConfig).toEqual({ functionCallingConfig: { mode: "AUTO" } });
    expect(unknown.warnings).toEqual([
      {
        code: "tool-choice-unknown-tool",
        message:
          'toolChoice names "b", which is not among the request\'s tools; the model chooses freely instead.',
      },
    ]);
    expect(prepareGeminiTools({}).tools).toBeUndefined();
  });

  it("warns about removed schema keywords and unresolved references", () => {
    const prepared = prepareGeminiTools({
      tools: [
        {
          name: "t",
          description: "",
          inputSchema: {
            type: "object",
            properties: { n: { type: "integer", multipleOf: 2 }, r: { $ref: "#/$defs/missing" } },
          },
        },
      ],
    });
    expect(prepared.warnings.map((warning) => warning.code)).toEqual([
      "tool-schema-keywords-removed",
      "tool-schema-ref-unresolved",
    ]);
    expect(prepared.warnings[0]?.message).toContain("multipleOf");
    expect(prepared.tools?.[0]?.functionDeclarations?.[0]?.parametersJsonSchema).toEqual({
      type: "object",
      properties: { n: { type: "integer" }, r: {} },
    });
  });
});
