import { describe, expect, it } from "vitest";
import { COMMON_TOOL_NAME_RULE, createToolNameMapping, toolNamesInMessages } from "./tool-names.js";

describe("createToolNameMapping", () => {
  it("keeps names that already fit the rule", () => {
    const mapping = createToolNameMapping(["get_weather", "fs-read"], COMMON_TOOL_NAME_RULE);
    expect(mapping.toVendor("get_weather")).toBe("get_weather");
    expect(mapping.fromVendor("fs-read")).toBe("fs-read");
  });

  it("replaces invalid characters and maps back to the real name", () => {
    const mapping = createToolNameMapping(["files.read", "files read"], COMMON_TOOL_NAME_RULE);
    const dotted = mapping.toVendor("files.read");
    const spaced = mapping.toVendor("files read");
    expect(dotted).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(spaced).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(dotted).not.toBe(spaced);
    expect(mapping.fromVendor(dotted)).toBe("files.read");
    expect(mapping.fromVendor(spaced)).toBe("files read");
  });

  it("shortens long names while keeping them distinct", () => {
    const a = `${"x".repeat(70)}_alpha`;
    const b = `${"x".repeat(70)}_beta`;
    const mapping = createToolNameMapping([a, b], COMMON_TOOL_NAME_RULE);
    expect(mapping.toVendor(a).length).toBeLessThanOrEqual(64);
    expect(mapping.toVendor(a)).not.toBe(mapping.toVendor(b));
    expect(mapping.fromVendor(mapping.toVendor(b))).toBe(b);
  });

  it("never renames a valid name to make room for an adapted one", () => {
    const mapping = createToolNameMapping(["a.b", "a_b"], COMMON_TOOL_NAME_RULE);
    expect(mapping.toVendor("a_b")).toBe("a_b");
    expect(mapping.toVendor("a.b")).not.toBe("a_b");
    expect(mapping.fromVendor(mapping.toVendor("a.b"))).toBe("a.b");
  });

  it("gives the same mapping for the same names on every request", () => {
    const first = createToolNameMapping(["a.b", "c d"], COMMON_TOOL_NAME_RULE);
    const second = createToolNameMapping(["a.b", "c d"], COMMON_TOOL_NAME_RULE);
    expect(second.toVendor("a.b")).toBe(first.toVendor("a.b"));
  });
});

describe("toolNamesInMessages", () => {
  it("lists the tools a conversation called and answered, in order", () => {
    expect(
      toolNamesInMessages([
        { role: "user", content: "hi" },
        {
          role: "assistant",
          content: [
            { type: "text", text: "let me look" },
            { type: "tool-call", id: "1", name: "files.read", input: {} },
          ],
        },
        {
          role: "tool",
          content: [{ type: "tool-result", toolCallId: "1", toolName: "files.read", output: "x" }],
        },
      ]),
    ).toEqual(["files.read", "files.read"]);
  });
});
