import type { Tool } from "@junction/types";
import { describe, expect, it } from "vitest";
import { Agent, type AgentEvent, type ApprovalRequest, annotationPolicy } from "./index.js";
import { scriptedModel } from "./testing/index.js";

function recordingTool(name: string, ran: string[], annotations?: Tool["annotations"]): Tool {
  return {
    name,
    description: name,
    inputSchema: { type: "object" },
    ...(annotations ? { annotations } : {}),
    execute: async () => {
      ran.push(name);
      return `${name} ran`;
    },
  };
}

const denied = (name: string, reason?: string) => ({
  content: [
    {
      type: "text",
      text: `The call to tool "${name}" was denied${reason ? `: ${reason}` : "."} Do not call it again unless the user asks.`,
    },
  ],
  isError: true,
});

describe("approval policies", () => {
  it("annotationPolicy: read-only closed-world runs; destructive, unannotated and merely non-destructive ask; a UI answers through the event", async () => {
    const ran: string[] = [];
    const tools = [
      recordingTool("read_file", ran, { readOnlyHint: true, openWorldHint: false }),
      recordingTool("delete_file", ran, { destructiveHint: true }),
      recordingTool("write_file", ran),
      recordingTool("add_note", ran, { readOnlyHint: false, destructiveHint: false }),
    ];
    const provider = scriptedModel([
      { toolCalls: tools.map((t) => ({ id: t.name, name: t.name, input: { path: "/tmp/x" } })) },
      { text: "done" },
    ]);
    const agent = new Agent({ provider, model: "m", tools, approval: annotationPolicy() });
    const handle = agent.send("x");
    const asked: string[] = [];
    for await (const event of handle) {
      if (event.type === "tool-approval-request") {
        asked.push(event.name);
        expect(event.input).toEqual({ path: "/tmp/x" });
        if (event.name === "delete_file") event.deny("Not today.");
        else event.approve();
      }
    }
    const result = await handle.final;
    expect(asked.sort()).toEqual(["add_note", "delete_file", "write_file"]);
    expect(ran.sort()).toEqual(["add_note", "read_file", "write_file"]);
    expect(result.steps[0]!.toolResults.map((r) => r.output)).toEqual([
      "read_file ran",
      denied("delete_file", "Not today."),
      "write_file ran",
      "add_note ran",
    ]);
  });

  it("annotationPolicy({ ask }) answers the questions itself", async () => {
    const ran: string[] = [];
    const questions: ApprovalRequest[] = [];
    const tools = [
      recordingTool("rm", ran, { destructiveHint: true }),
      recordingTool("ls", ran, { readOnlyHint: true, openWorldHint: false }),
    ];
    const provider = scriptedModel([
      {
        toolCalls: [
          { id: "1", name: "rm" },
          { id: "2", name: "ls" },
        ],
      },
      { text: "ok" },
    ]);
    const handle = new Agent({
      provider,
      model: "m",
      tools,
      approval: annotationPolicy({
        ask: (request) => {
          questions.push(request);
          return false;
        },
      }),
    }).send("x");
    const events: AgentEvent[] = [];
    for await (const event of handle) events.push(event);
    expect(events.some((e) => e.type === "tool-approval-request")).toBe(false);
    expect(questions).toEqual([{ id: "1", name: "rm", input: {}, annotations: { destructiveHint: true } }]);
    expect(ran).toEqual(["ls"]);
    expect((await handle.final).steps[0]!.toolResults[0]!.output).toEqual(denied("rm"));
  });

  it("allow and deny lists by name pattern: deny wins, the rest asks by default", async () => {
    const ran: string[] = [];
    const tools = ["github_read", "github_delete_repo", "fs_read", "shell"].map((n) => recordingTool(n, ran));
    const provider = scriptedModel([
      { toolCalls: tools.map((t) => ({ id: t.name, name: t.name })) },
      { text: "ok" },
    ]);
    const handle = new Agent({
      provider,
      model: "m",
      tools,
      approval: { allow: ["github_*", /^fs_/], deny: ["*_delete_*"] },
    }).send("x");
    for await (const event of handle) {
      if (event.type === "tool-approval-request") {
        expect(event.name).toBe("shell");
        event.deny();
      }
    }
    const result = await handle.final;
    expect(ran.sort()).toEqual(["fs_read", "github_read"]);
    expect(result.steps[0]!.toolResults.map((r) => r.output)).toEqual([
      "github_read ran",
      denied("github_delete_repo", 'The tool "github_delete_repo" is on the deny list.'),
      "fs_read ran",
      denied("shell"),
    ]);
  });

  it("a callback decides each call, with source and annotations; a failing callback denies", async () => {
    const ran: string[] = [];
    const seen: ApprovalRequest[] = [];
    const tools = [recordingTool("safe", ran), recordingTool("unsafe", ran), recordingTool("crash", ran)];
    const provider = scriptedModel([
      { toolCalls: tools.map((t) => ({ id: t.name, name: t.name, input: { n: 1 } })) },
      { text: "ok" },
    ]);
    const result = await new Agent({
      provider,
      model: "m",
      tools,
      approval: async (request) => {
        seen.push(request);
        if (request.name === "crash") throw new Error("policy bug");
        return request.name === "safe";
      },
    }).send("x").final;
    expect(ran).toEqual(["safe"]);
    expect(seen.map((r) => r.name).sort()).toEqual(["crash", "safe", "unsafe"]);
    expect(result.steps[0]!.toolResults.map((r) => r.output)).toEqual([
      "safe ran",
      denied("unsafe"),
      denied("crash", "The approval policy failed: policy bug."),
    ]);
  });

  it("without a policy every tool runs, with no approval events", async () => {
    const ran: string[] = [];
    const tools = [recordingTool("rm", ran, { destructiveHint: true })];
    const provider = scriptedModel([{ toolCalls: [{ name: "rm" }] }, { text: "ok" }]);
    const handle = new Agent({ provider, model: "m", tools }).send("x");
    const types: string[] = [];
    for await (const event of handle) types.push(event.type);
    expect(ran).toEqual(["rm"]);
    expect(types).not.toContain("tool-approval-request");
  });

  it("validates arguments before asking, so the user is never asked about a call that cannot run", async () => {
    const ran: string[] = [];
    const strict: Tool = {
      ...recordingTool("strict", ran),
      inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
    };
    const provider = scriptedModel([{ toolCalls: [{ name: "strict", input: {} }] }, { text: "ok" }]);
    const asked: string[] = [];
    await new Agent({
      provider,
      model: "m",
      tools: [strict],
      approval: (request) => {
        asked.push(request.name);
        return true;
      },
    }).send("x").final;
    expect(asked).toEqual([]);
    expect(ran).toEqual([]);
  });

  it("a global regular expression in a name list matches every time, not every other time", async () => {
    const ran: string[] = [];
    const tools = ["fs_a", "fs_b", "fs_c"].map((n) => recordingTool(n, ran));
    const provider = scriptedModel([
      { toolCalls: tools.map((t) => ({ id: t.name, name: t.name })) },
      { text: "ok" },
    ]);
    const result = await new Agent({
      provider,
      model: "m",
      tools,
      approval: { allow: [/^fs_/g], otherwise: "deny" },
      toolConcurrency: 1,
    }).send("x").final;
    expect(ran).toEqual(["fs_a", "fs_b", "fs_c"]);
    expect(result.steps[0]!.toolResults.map((r) => r.output)).toEqual(["fs_a ran", "fs_b ran", "fs_c ran"]);
  });
});
