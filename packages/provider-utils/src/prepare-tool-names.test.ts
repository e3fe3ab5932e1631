import {
  COMMON_TOOL_NAME_RULE,
  createToolNameMapping,
  type Message,
  type ToolDefinition,
} from "@junction/types";
import { describe, expect, it } from "vitest";
import { prepareToolNames, toolChoiceWithoutTools } from "./prepare-tool-names.js";

const tool = (name: string, description = ""): ToolDefinition => ({
  name,
  description,
  inputSchema: { type: "object" },
});

describe("prepareToolNames", () => {
  it("maps offered names by the rule and keeps tools in order", () => {
    const prepared = prepareToolNames({
      tools: [tool("github.search"), tool("read_file")],
      messages: [],
      rule: COMMON_TOOL_NAME_RULE,
      provider: "Acme",
    });
    expect(prepared.tools.map((t) => t.name)).toEqual(["github.search", "read_file"]);
    expect(prepared.toolNames.toVendor("github.search")).toBe("github_search_14lgjvs");
    expect(prepared.toolNames.fromVendor("github_search_14lgjvs")).toBe("github.search");
    expect(prepared.toolNames.toVendor("read_file")).toBe("read_file");
    expect(prepared.warnings).toEqual([]);
  });

  it("covers names the conversation used, so a tool no longer offered maps back", () => {
    const messages: Message[] = [
      { role: "user", content: "hi" },
      { role: "assistant", content: [{ type: "tool-call", id: "c1", name: "old.tool", input: {} }] },
      {
        role: "tool",
        content: [{ type: "tool-result", toolCallId: "c1", toolName: "old.tool", output: "done" }],
      },
    ];
    const prepared = prepareToolNames({
      tools: [tool("old_tool")],
      messages,
      rule: COMMON_TOOL_NAME_RULE,
      provider: "Acme",
    });
    // "old_tool" fits and claims itself; the history's "old.tool" gets a distinct (hashed) vendor name.
    expect(prepared.toolNames.toVendor("old_tool")).toBe("old_tool");
    expect(prepared.toolNames.toVendor("old.tool")).toBe("old_tool_1kfgu6q");
    expect(prepared.toolNames.fromVendor("old_tool_1kfgu6q")).toBe("old.tool");
    expect(prepared.tools.map((t) => t.name)).toEqual(["old_tool"]);
  });

  it("keeps the first of two tools with one name and warns about each one left out", () => {
    const first = tool("search", "first");
    const prepared = prepareToolNames({
      tools: [first, tool("search", "second"), tool("other"), tool("search", "third")],
      messages: [],
      rule: COMMON_TOOL_NAME_RULE,
      provider: "Anthropic",
    });
    expect(prepared.tools).toEqual([first, tool("other")]);
    expect(prepared.tools[0]).toBe(first);
    expect(prepared.warnings).toEqual([
      {
        code: "tool-duplicate-name",
        message: 'Two tools are named "search"; only the first is sent to Anthropic.',
      },
      {
        code: "tool-duplicate-name",
        message: 'Two tools are named "search"; only the first is sent to Anthropic.',
      },
    ]);
  });

  it("takes a mapping function for a vendor with a rule of its own, given every name used", () => {
    const seen: string[][] = [];
    const prepared = prepareToolNames({
      tools: [tool("1st"), tool("b")],
      messages: [{ role: "assistant", content: [{ type: "tool-call", id: "c", name: "past", input: {} }] }],
      rule: (names) => {
        seen.push(names);
        const base = createToolNameMapping(names, COMMON_TOOL_NAME_RULE);
        return {
          toVendor: (name) => `x_${base.toVendor(name)}`,
          fromVendor: (name) => base.fromVendor(name.slice(2)),
        };
      },
      provider: "Acme",
    });
    expect(seen).toEqual([["1st", "b", "past"]]);
    expect(prepared.toolNames.toVendor("1st")).toBe("x_1st");
    expect(prepared.toolNames.fromVendor("x_past")).toBe("past");
  });

  it("treats absent tools and messages as none", () => {
    const prepared = prepareToolNames({
      tools: undefined,
      messages: undefined,
      rule: COMMON_TOOL_NAME_RULE,
      provider: "Acme",
    });
    expect(prepared.tools).toEqual([]);
    expect(prepared.warnings).toEqual([]);
    expect(prepared.toolNames.fromVendor("anything")).toBe("anything");
  });
});

describe("toolChoiceWithoutTools", () => {
  it("warns for a choice that needs a tool, and only for one", () => {
    const warning = {
      code: "tool-choice-without-tools",
      message: "A tool choice that requires a tool was given without any tools; it was not sent.",
    };
    expect(toolChoiceWithoutTools("required")).toEqual(warning);
    expect(toolChoiceWithoutTools({ type: "tool", name: "search" })).toEqual(warning);
    expect(toolChoiceWithoutTools("auto")).toBeUndefined();
    expect(toolChoiceWithoutTools("none")).toBeUndefined();
    expect(toolChoiceWithoutTools(undefined)).toBeUndefined();
  });
});
