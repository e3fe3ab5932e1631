import type { Message, ModelRequest, Tool, ToolResult } from "@junction/types";
import { describe, expect, it } from "vitest";
import { Agent, type AgentEvent } from "./index.js";
import { scriptedModel } from "./testing/index.js";
import { budgetedMessages, hasCutResults, toolResultBudget } from "./tool-result-budget.js";

/** 2 MB of text whose head and tail can be told apart from the middle. */
const HEAD = "HEAD-MARKER ";
const TAIL = " TAIL-MARKER";
const big = HEAD + "0123456789".repeat(200_000 - 3) + "x".repeat(6) + TAIL;

function dumpTool(output: Tool["execute"]): Tool {
  return { name: "dump", description: "Dumps a log", inputSchema: { type: "object" }, execute: output };
}

function toolResultOf(request: ModelRequest, toolCallId: string) {
  for (const message of request.messages) {
    if (message.role !== "tool") continue;
    const found = message.content.find((part) => part.toolCallId === toolCallId);
    if (found) return found.output;
  }
  throw new Error(`no result for ${toolCallId}`);
}

describe("tool results sized to the model", () => {
  it("a 2 MB result reaches a small-window model as head and tail, and the model reads the rest with read_tool_result", async () => {
    expect(big.length).toBe(2_000_000);
    // An 8,000-token window: the budget is the 1,000-token floor, 3,000 characters; 2,250 head and 750 tail.
    const provider = scriptedModel({
      capabilities: { contextWindowTokens: 8_000 },
      responses: [
        { toolCalls: [{ id: "d1", name: "dump" }] },
        { toolCalls: [{ id: "r1", name: "read_tool_result", input: { toolCallId: "d1", offset: 2250 } }] },
        {
          toolCalls: [{ id: "r2", name: "read_tool_result", input: { toolCallId: "d1", offset: 1_999_000 } }],
        },
        { text: "done" },
      ],
    });
    const events: AgentEvent[] = [];
    const agent = new Agent({
      provider,
      model: "small",
      tools: [dumpTool(async () => big)],
      onEvent: (event) => events.push(event),
    });
    const result = await agent.send("show the log").final;
    expect(result.text).toBe("done");

    // The first request has no read tool: nothing was cut yet.
    expect(provider.requests[0]!.tools!.map((tool) => tool.name)).toEqual(["dump"]);
    const second = provider.requests[1]!;
    expect(second.tools!.map((tool) => tool.name)).toEqual(["dump", "read_tool_result"]);
    const shown = toolResultOf(second, "d1") as string;
    expect(shown).toBe(
      `${big.slice(0, 2250)}\n\n[Junction cut this tool result to fit the model's context window: it has 2000000 characters of text; ` +
        `characters 0–2250 are above and 1999250–2000000 below. Read the rest with the read_tool_result tool: {"toolCallId": "d1", "offset": 2250}.]\n\n` +
        big.slice(2_000_000 - 750),
    );
    expect(shown.startsWith(HEAD)).toBe(true);
    expect(shown.endsWith(TAIL)).toBe(true);

    // Page one: 2,600 characters from the offset the note gave.
    const page = toolResultOf(provider.requests[2]!, "r1");
    expect(page).toBe(
      `[Characters 2250–4850 of 2000000 of the result of call d1; next page: offset 4850.]\n${big.slice(2250, 4850)}`,
    );
    const last = toolResultOf(provider.requests[3]!, "r2");
    expect(last).toBe(
      `[Characters 1999000–2000000 of 2000000 of the result of call d1; this is the end.]\n${big.slice(1_999_000)}`,
    );

    // The raw result stays whole for code and UI: the tool-result event and the conversation.
    const toolResult = events.find((event) => event.type === "tool-result" && event.id === "d1");
    expect(toolResult?.type === "tool-result" && toolResult.result).toEqual({
      content: [{ type: "text", text: big }],
      isError: false,
    });
    expect(agent.messages[2]).toEqual({
      role: "tool",
      content: [{ type: "tool-result", toolCallId: "d1", toolName: "dump", output: big }],
    });
    // Reported once, though three requests carried the cut result.
    expect(
      result.warnings.filter((warning) => warning.code === "tool-result-cut").map((w) => w.message),
    ).toEqual([
      'Tool "dump" (call d1) returned more than the 1000-token budget for one tool result on model "small" (10% of its 8000-token window): ' +
        "the model saw the first 2250 and last 750 of 2000000 characters and can read the rest with read_tool_result. " +
        "The full result stays in the conversation and the tool-result event.",
    ]);
  });

  it("the budget follows the window: the same result goes whole to a 1M-token model", async () => {
    const medium = "y".repeat(50_000);
    const provider = scriptedModel({
      capabilities: { contextWindowTokens: 1_000_000 },
      responses: [{ toolCalls: [{ id: "d1", name: "dump" }] }, { text: "ok" }],
    });
    const result = await new Agent({ provider, model: "large", tools: [dumpTool(async () => medium)] }).send(
      "x",
    ).final;
    expect(toolResultOf(provider.requests[1]!, "d1")).toBe(medium);
    expect(provider.requests[1]!.tools!.map((tool) => tool.name)).toEqual(["dump"]);
    expect(result.warnings).toEqual([]);
  });

  it("media is never cut mid-part: an image that does not fit is left out whole with a note, one that fits is kept", () => {
    const image = { type: "image" as const, data: "AAAA", mimeType: "image/png" };
    const output: ToolResult = {
      content: [{ type: "text", text: "z".repeat(2_000) }, image, { ...image, mimeType: "image/jpeg" }],
      isError: false,
    };
    // 2,500 tokens: text needs 667, so media may take 1,834: one 1,600-token image fits, the second does not.
    const view = budgetedMessages({
      messages: [
        { role: "tool", content: [{ type: "tool-result", toolCallId: "c", toolName: "shot", output }] },
      ],
      budget: toolResultBudget(25_000),
      readable: true,
    });
    expect(view.cut.map((cut) => cut.droppedMedia)).toEqual([1]);
    expect(view.messages[0]).toEqual({
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "c",
          toolName: "shot",
          output: {
            content: [
              { type: "text", text: "z".repeat(2_000) },
              image,
              {
                type: "text",
                text: "[The tool returned an image (image/jpeg) of about 1600 tokens that did not fit this model's budget for one tool result, so Junction left it out here; the application still has it.]",
              },
            ],
            isError: false,
          },
        },
      ],
    });
  });

  it("a cut result with an oversized image is reported once, though its view is rebuilt every step", async () => {
    const provider = scriptedModel({
      capabilities: { contextWindowTokens: 8_000, mediaLimits: { maxImageBytes: 2 } },
      responses: [
        { toolCalls: [{ id: "d1", name: "dump" }] },
        { toolCalls: [{ id: "d2", name: "dump" }] },
        { text: "ok" },
      ],
    });
    const result = await new Agent({
      provider,
      model: "m",
      tools: [
        dumpTool(
          async (): Promise<ToolResult> => ({
            content: [
              { type: "text", text: "t".repeat(10_000) },
              { type: "image", data: "AAAAAAAA", mimeType: "image/png" },
            ],
            isError: false,
          }),
        ),
      ],
    }).send("x").final;
    expect(result.warnings.map((warning) => warning.code).sort()).toEqual([
      "tool-result-cut",
      "tool-result-cut",
      "tool-result-media-too-large",
      "tool-result-media-too-large",
    ]);
  });

  it("read_tool_result answers bad input and unknown ids with an error result", async () => {
    const provider = scriptedModel({
      capabilities: { contextWindowTokens: 8_000 },
      responses: [
        { toolCalls: [{ id: "d1", name: "dump" }] },
        {
          toolCalls: [
            { id: "r1", name: "read_tool_result", input: { toolCallId: "nope", offset: 0 } },
            { id: "r2", name: "read_tool_result", input: { toolCallId: "d1", offset: -1 } },
            { id: "r3", name: "read_tool_result", input: { toolCallId: "d1", offset: 5_000_000 } },
          ],
        },
        { text: "ok" },
      ],
    });
    await new Agent({ provider, model: "m", tools: [dumpTool(async () => big)] }).send("x").final;
    const request = provider.requests[2]!;
    const error = (text: string) => ({ content: [{ type: "text", text }], isError: true });
    expect(toolResultOf(request, "r1")).toEqual(
      error('There is no tool result with the call id "nope" in this conversation.'),
    );
    expect(toolResultOf(request, "r2")).toEqual(
      error('read_tool_result needs {"toolCallId": string, "offset": a whole number from 0}.'),
    );
    expect(toolResultOf(request, "r3")).toEqual(
      error("The result of call d1 has 2000000 characters; offset 5000000 is past its end."),
    );
  });
});

describe("budgetedMessages: text results counted without building their text", () => {
  const budget = toolResultBudget(10_000); // 1,000 tokens at least: 3,000 characters
  const toolMessage = (output: string | ToolResult): Message => ({
    role: "tool",
    content: [{ type: "tool-result", toolCallId: "c", toolName: "t", output }],
  });
  const cutChars = (output: string | ToolResult) =>
    budgetedMessages({ messages: [toolMessage(output)], budget, readable: false }).cut.map(
      (cut) => cut.totalChars,
    );

  it("cuts at the same boundary as before: at the budget kept, one character over cut", () => {
    expect(budget.chars).toBe(3_000);
    expect(cutChars("a".repeat(3_000))).toEqual([]);
    expect(cutChars("a".repeat(3_001))).toEqual([3_001]);
    const parts = (...lengths: number[]): ToolResult => ({
      content: lengths.map((length) => ({ type: "text" as const, text: "b".repeat(length) })),
      isError: false,
    });
    // Joined with "\n": 1,500 + 1 + 1,499 = 3,000, within the budget though the quick count is over.
    expect(cutChars(parts(1_500, 1_499))).toEqual([]);
    expect(cutChars(parts(1_500, 1_500))).toEqual([3_001]);
    // structuredContent stands in for text when no text part mirrors it: its JSON counts.
    expect(cutChars({ content: [], structuredContent: { data: "c".repeat(3_000) }, isError: false })).toEqual(
      [3_011],
    );
  });

  it("returns the same conversation, and the same message objects, when nothing is cut", () => {
    const messages: Message[] = [
      { role: "user", content: "hi" },
      toolMessage("short"),
      toolMessage("d".repeat(4_000)),
      toolMessage("also short"),
    ];
    const untouched = budgetedMessages({ messages: messages.slice(0, 2), budget, readable: false });
    expect(untouched.messages).toEqual(messages.slice(0, 2));
    const view = budgetedMessages({ messages, budget, readable: false });
    expect(view.messages).not.toBe(messages);
    expect(view.messages[0]).toBe(messages[0]);
    expect(view.messages[1]).toBe(messages[1]);
    expect(view.messages[2]).not.toBe(messages[2]);
    expect(view.messages[3]).toBe(messages[3]);
    expect(hasCutResults(messages, budget)).toBe(true);
    expect(hasCutResults(messages.slice(0, 2), budget)).toBe(false);
  });
});

describe("a result's structuredContent counts against the budget as text does (anthropics/claude-agent-sdk-typescript#389)", () => {
  // 400 KB of JSON rows: far over a 20,000-token window's 2,000-token budget (6,000 characters).
  const rows = Array.from({ length: 4_000 }, (_, id) => ({ id, name: `row ${id}`, note: "n".repeat(70) }));
  const json = JSON.stringify({ rows });

  async function run(output: ToolResult) {
    const provider = scriptedModel({
      capabilities: { contextWindowTokens: 20_000 },
      responses: [{ toolCalls: [{ id: "q1", name: "dump" }] }, { text: "done" }],
    });
    const events: AgentEvent[] = [];
    const agent = new Agent({
      provider,
      model: "small",
      tools: [dumpTool(async () => output)],
      onEvent: (event) => events.push(event),
    });
    const result = await agent.send("rows").final;
    const raw = events.find((event) => event.type === "tool-result");
    return { provider, agent, result, raw: raw?.type === "tool-result" ? raw.result : undefined };
  }

  it("with no text part, the 400 KB structuredContent is the text: held to the budget with the usual note, read_tool_result offered", async () => {
    expect(json.length).toBe(437_790);
    const output: ToolResult = { content: [], structuredContent: { rows }, isError: false };
    const { provider, agent, result, raw } = await run(output);
    const shown = toolResultOf(provider.requests[1]!, "q1") as ToolResult;
    expect(shown).toEqual({
      content: [
        {
          type: "text",
          text:
            `${json.slice(0, 4_500)}\n\n[Junction cut this tool result to fit the model's context window: it has 437790 characters of text; ` +
            `characters 0–4500 are above and 436290–437790 below. Read the rest with the read_tool_result tool: {"toolCallId": "q1", "offset": 4500}.]\n\n` +
            json.slice(437_790 - 1_500),
        },
      ],
      isError: false,
    });
    expect(provider.requests[1]!.tools!.map((tool) => tool.name)).toEqual(["dump", "read_tool_result"]);
    expect(result.warnings.map((warning) => warning.code)).toEqual(["tool-result-cut"]);
    // Nothing lost for code and UI.
    expect(raw).toEqual(output);
    expect(agent.messages[2]).toEqual({
      role: "tool",
      content: [{ type: "tool-result", toolCallId: "q1", toolName: "dump", output }],
    });
  });

  it("beside a text part, the 400 KB structuredContent is left out of the model's view (the text stands for it), with a warning; the raw result keeps it", async () => {
    const output: ToolResult = {
      content: [{ type: "text", text: "4000 rows, ids 0 to 3999." }],
      structuredContent: { rows },
      isError: false,
    };
    const { provider, agent, result, raw } = await run(output);
    expect(toolResultOf(provider.requests[1]!, "q1")).toEqual({
      content: [{ type: "text", text: "4000 rows, ids 0 to 3999." }],
      isError: false,
    });
    expect(JSON.stringify(provider.requests[1]!.messages).length).toBeLessThan(1_000);
    // The text is whole: nothing to page through.
    expect(provider.requests[1]!.tools!.map((tool) => tool.name)).toEqual(["dump"]);
    expect(result.warnings.map((warning) => warning.message)).toEqual([
      'Tool "dump" (call q1) returned a structuredContent of 437790 characters of JSON beside its text, more than the 2000-token budget for one tool result ' +
        'on model "small" (10% of its 20000-token window) leaves room for: the model was sent the text (25 characters), which stands for it, and not the structuredContent. ' +
        "The full result stays in the conversation and the tool-result event.",
    ]);
    expect(raw).toEqual(output);
    expect(agent.messages[2]).toEqual({
      role: "tool",
      content: [{ type: "tool-result", toolCallId: "q1", toolName: "dump", output }],
    });
  });

  it("a structuredContent that fits beside its text goes as it is, the same message object", () => {
    const messages: Message[] = [
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "s1",
            toolName: "dump",
            output: {
              content: [{ type: "text", text: "2 rows" }],
              structuredContent: { rows: rows.slice(0, 2) },
              isError: false,
            },
          },
        ],
      },
    ];
    const view = budgetedMessages({ messages, budget: toolResultBudget(20_000), readable: false });
    expect(view.messages[0]).toBe(messages[0]);
    expect(view.cut).toEqual([]);
  });

  it("text and structuredContent count together: each within the budget, both over it, the structured part is left out", () => {
    const budget = toolResultBudget(20_000);
    const text = "t".repeat(4_000);
    const output: ToolResult = {
      content: [{ type: "text", text }],
      structuredContent: { data: "d".repeat(3_000) },
      isError: false,
    };
    const messages: Message[] = [
      { role: "tool", content: [{ type: "tool-result", toolCallId: "s2", toolName: "dump", output }] },
    ];
    const view = budgetedMessages({ messages, budget, readable: true });
    expect(view.messages[0]).toEqual({
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "s2",
          toolName: "dump",
          output: { content: [{ type: "text", text }], isError: false },
        },
      ],
    });
    expect(view.cut.map((cut) => cut.droppedStructuredChars)).toEqual([3_011]);
    expect(hasCutResults(messages, budget)).toBe(false);
  });
});
