import type { Tool } from "@junction/types";
import { describe, expect, it } from "vitest";
import { Agent, type AgentConfig, type ApprovalRequest } from "./index.js";
import { type ScriptedResponse, scriptedModel } from "./testing/index.js";

// Issue 26: Junction's own tools (search_tools, read_tool_result) read only what the run already
// holds. Their results must not count as private data by themselves: under an approval policy
// that lets a tool run, the first open-world call after a tool search ran unasked before it was
// asked about, with a reason naming "search_tools".

function plainTool(name: string, output: string, annotations?: Tool["annotations"]): Tool {
  return {
    name,
    description: `The ${name.replace(/_/g, " ")} tool.`,
    inputSchema: { type: "object", properties: {} },
    ...(annotations ? { annotations } : {}),
    execute: async () => output,
  };
}

/** An open-world tool (MCP's default): it can send its arguments anywhere. */
const post = () => plainTool("post_message", "posted");

async function run(
  config: Omit<AgentConfig, "provider" | "model">,
  script: { window: number; responses: ScriptedResponse[] },
) {
  const provider = scriptedModel({
    capabilities: { contextWindowTokens: script.window },
    responses: script.responses,
  });
  const policyRequests: ApprovalRequest[] = [];
  const asked: { name: string; reason?: string }[] = [];
  const agent = new Agent({
    provider,
    model: "m",
    approval: (request) => {
      policyRequests.push(request);
      return true;
    },
    ...config,
  });
  const handle = agent.send("go");
  for await (const event of handle) {
    if (event.type !== "tool-approval-request") continue;
    asked.push({ name: event.name, ...(event.reason !== undefined ? { reason: event.reason } : {}) });
    event.deny("no");
  }
  const result = await handle.final;
  const outputs = result.steps.flatMap((step) =>
    step.toolResults.map((part) => [part.toolName, part.output]),
  );
  return { asked, policyRequests, outputs, provider };
}

describe("Junction's own tools and the exfiltration guard", () => {
  it("a tool search is not a read of private data: the open-world tool it found runs as the policy says", async () => {
    const { asked, policyRequests, outputs, provider } = await run(
      { tools: [{ ...post(), defer: true }, plainTool("clock", "noon", { openWorldHint: false })] },
      {
        window: 1_000_000,
        responses: [
          { toolCalls: [{ id: "s", name: "search_tools", input: { query: "post a message" } }] },
          { toolCalls: [{ id: "p", name: "post_message" }] },
          { text: "Posted." },
        ],
      },
    );
    expect(provider.requests[0]!.tools!.map((tool) => tool.name)).toEqual(["clock", "search_tools"]);
    expect(asked).toEqual([]);
    // search_tools ran without asking the policy; post_message was asked about once, with no private data.
    expect(policyRequests.map((request) => [request.name, request.privateDataFrom])).toEqual([
      ["post_message", undefined],
    ]);
    expect(outputs.map(([name]) => name)).toEqual(["search_tools", "post_message"]);
    expect(outputs[1]![1]).toBe("posted");
  });

  const cutScript = (readerId: string): ScriptedResponse[] => [
    { toolCalls: [{ id: readerId, name: readerId === "w" ? "fetch_web" : "read_notes" }] },
    { toolCalls: [{ id: "r", name: "read_tool_result", input: { toolCallId: readerId, offset: 2250 } }] },
    { toolCalls: [{ id: "p", name: "post_message" }] },
    { text: "Done." },
  ];
  const long = "x".repeat(20_000);

  it("paging an open-world result with read_tool_result reads no private data: the open-world call runs unasked", async () => {
    const { asked, outputs } = await run(
      { tools: [plainTool("fetch_web", long), post()] },
      { window: 8_000, responses: cutScript("w") },
    );
    expect(asked).toEqual([]);
    expect(outputs.map(([name]) => name)).toEqual(["fetch_web", "read_tool_result", "post_message"]);
    expect(outputs[2]![1]).toBe("posted");
  });

  it("paging a closed-world result changes nothing: the private data was read by its tool, and only that tool is named", async () => {
    const { asked, policyRequests } = await run(
      { tools: [plainTool("read_notes", long, { openWorldHint: false }), post()] },
      { window: 8_000, responses: cutScript("n") },
    );
    expect(asked).toEqual([
      {
        name: "post_message",
        reason:
          '"post_message" can reach outside (open world), and the conversation already holds data read with "read_notes"; approve only if that data may go where this call sends it.',
      },
    ]);
    expect(policyRequests.map((request) => [request.name, request.privateDataFrom])).toEqual([
      ["read_notes", undefined],
      ["post_message", ["read_notes"]],
    ]);
  });

  it("a local tool of the user's named search_tools still counts by its own annotations", async () => {
    const { asked } = await run(
      { tools: [plainTool("search_tools", "private hits", { openWorldHint: false }), post()] },
      {
        window: 1_000_000,
        responses: [
          { toolCalls: [{ id: "s", name: "search_tools" }] },
          { toolCalls: [{ id: "p", name: "post_message" }] },
          { text: "Done." },
        ],
      },
    );
    expect(asked.map((question) => question.name)).toEqual(["post_message"]);
  });
});
