import { ProviderError, type Tool } from "@junction/types";
import { describe, expect, it } from "vitest";
import { Agent, annotationPolicy, InMemoryDurability, type JSONValue, type RunState } from "./index.js";
import { scriptedModel } from "./testing/index.js";

function deleteTool(runs: string[]): Tool {
  return {
    name: "delete_file",
    description: "Deletes a file",
    inputSchema: { type: "object", properties: { path: { type: "string" } } },
    annotations: { destructiveHint: true },
    execute: async (input: { path?: string }) => {
      runs.push(input.path ?? "");
      return `deleted ${input.path}`;
    },
  };
}

const badRequest = new ProviderError({
  provider: "scripted",
  code: "provider-api-error",
  message: "400 Bad Request",
  status: 400,
});

describe("finished work is recorded as it finishes (onRunState)", () => {
  it("an approved destructive call that finished before the next model request failed is recorded finished, and never runs again", async () => {
    const runs: string[] = [];
    const first = new Agent({
      provider: scriptedModel([
        { toolCalls: [{ id: "del", name: "delete_file", input: { path: "/tmp/x" } }] },
      ]),
      model: "m",
      tools: [deleteTool(runs)],
      approval: annotationPolicy(),
    });
    const stopped = (await first.send("Delete /tmp/x").final).state!;

    // The person approves; the call runs; the model's next request fails (an HTTP 400).
    const recorded: RunState[] = [];
    const approving = new Agent({
      provider: scriptedModel([{ error: badRequest }]),
      model: "m",
      tools: [deleteTool(runs)],
      approval: annotationPolicy(),
    });
    const failed = await approving
      .resume(
        { state: JSON.parse(JSON.stringify(stopped)), decisions: { del: "approve" } },
        {
          onRunState: (state) => {
            recorded.push(JSON.parse(JSON.stringify(state)));
          },
        },
      )
      .final.catch((error: unknown) => error);
    expect(ProviderError.isInstance(failed)).toBe(true);
    expect(runs).toEqual(["/tmp/x"]);
    expect(recorded).toHaveLength(1);
    const saved = recorded[0]!;
    expect(saved.pending).toEqual([]);
    expect(saved.journal["tool:1:del"]).toMatchObject({ output: "deleted /tmp/x", outcome: "success" });

    // Answering again from the recorded state: the call is not run a second time.
    const retry = new Agent({
      provider: scriptedModel([{ text: "Deleted." }]),
      model: "m",
      tools: [deleteTool(runs)],
      approval: annotationPolicy(),
    });
    const done = await retry.resume({ state: saved }).final;
    expect(done.text).toBe("Deleted.");
    expect(runs).toEqual(["/tmp/x"]);
  });

  it("a state recorded while a call of the step still waits lists it as the stopped run does, digests and all", async () => {
    const runs: string[] = [];
    const agent = new Agent({
      provider: scriptedModel([
        {
          toolCalls: [
            { id: "read", name: "read_file", input: { path: "/a" } },
            { id: "del", name: "delete_file", input: { path: "/b" } },
          ],
        },
      ]),
      model: "m",
      tools: [
        deleteTool(runs),
        {
          name: "read_file",
          description: "Reads a file",
          inputSchema: { type: "object", properties: { path: { type: "string" } } },
          annotations: { readOnlyHint: true, openWorldHint: false },
          execute: async () => "contents",
        },
      ],
      approval: annotationPolicy(),
    });
    const recorded: RunState[] = [];
    const result = await agent.send("Read /a, delete /b", {
      approvalTimeoutMs: 0,
      onRunState: (state) => {
        recorded.push(JSON.parse(JSON.stringify(state)));
      },
    }).final;
    expect(result.finishReason).toBe("approval-required");
    const midStep = recorded.find((state) => state.pending.length > 0);
    expect(midStep?.pending).toEqual(result.pending);
    expect(midStep?.pending[0]).toMatchObject({
      id: "del",
      toolDigest: expect.stringMatching(/^[0-9a-f]{64}$/),
      argumentsDigest: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });

  it("InMemoryDurability's onEntry sees each entry as it is written, before the run goes on", async () => {
    const entries: [string, JSONValue][] = [];
    const runs: string[] = [];
    const agent = new Agent({
      provider: scriptedModel([
        { toolCalls: [{ id: "del", name: "delete_file", input: { path: "/a" } }] },
        { text: "ok" },
      ]),
      model: "m",
      tools: [deleteTool(runs)],
    });
    const durability = new InMemoryDurability({
      onEntry: async (key, value) => {
        entries.push([key, value]);
      },
    });
    await agent.send("go", { durability }).final;
    expect(entries.map(([key]) => key)).toEqual(["tools:1", "model:1", "tool:1:del", "tools:2", "model:2"]);
    expect(entries[2]![1]).toMatchObject({ output: "deleted /a", outcome: "success" });
  });
});
