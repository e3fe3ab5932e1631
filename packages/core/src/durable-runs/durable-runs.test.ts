import type { Tool } from "@junction/types";
import { describe, expect, it } from "vitest";
import { Agent } from "../agent.js";
import { InMemoryDurability, type JSONValue } from "../durability.js";
import type { PendingToolCall } from "../run-state.js";
import { scriptedModel } from "../testing/scripted-model.js";
import {
  type AgentRunRequest,
  abortableWait,
  agentRun,
  answerIdempotencyKey,
  endedRunStatus,
  taggedAnswer,
  takenOutcome,
  throwIfWaitAborted,
  workflowForTool,
} from "./index.js";

// What the durable engines share, in process: the engines run it on their ports, and the engine
// contract suite (tooling/durable-engines) runs it on DBOS and Restate.

const item: PendingToolCall = {
  id: "call_7",
  name: "open_vault",
  input: { door: "north" },
  step: 3,
  toolDigest: "a".repeat(64),
  argumentsDigest: "b".repeat(64),
};

const vault: Tool<{ door: string }> = {
  name: "open_vault",
  description: "Opens the vault",
  inputSchema: { type: "object", properties: { door: { type: "string" } }, required: ["door"] },
  execute: async ({ door }) => [
    { type: "text", text: `opened ${door}` },
    { type: "image", data: "cGljdHVyZQ==", mimeType: "image/png" },
  ],
};

describe("agentRun", () => {
  it("makes the run's Agent from the request, continues its conversation, and returns the result as plain JSON", async () => {
    const asked: AgentRunRequest[] = [];
    const run = agentRun((request) => {
      asked.push(request);
      return new Agent({ provider: scriptedModel([{ text: "Still here." }]), model: "scripted" });
    });
    const earlier = [
      { role: "user", content: [{ type: "text", text: "Hello" }] },
      { role: "assistant", content: [{ type: "text", text: "Hi." }] },
    ];
    const result = (await run(new InMemoryDurability({ runId: "run-1" }), {
      input: "Are you there?",
      messages: earlier,
    } as JSONValue)) as { text: string; messages: unknown[] };
    expect(asked).toEqual([{ input: "Are you there?", messages: earlier }]);
    expect(result.text).toBe("Still here.");
    expect(result.messages.slice(0, 2)).toEqual(earlier);
    expect(result.messages).toHaveLength(4);
    // Plain JSON: what a journal keeps and gives back on a replay, the same value.
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });

  it("passes no `messages` to makeAgent for a request without a conversation", async () => {
    const asked: AgentRunRequest[] = [];
    const run = agentRun((request) => {
      asked.push(request);
      return new Agent({ provider: scriptedModel([{ text: "Hi." }]), model: "scripted" });
    });
    await run(new InMemoryDurability(), { input: "Hello" });
    expect(asked).toEqual([{ input: "Hello" }]);
  });
});

describe("endedRunStatus", () => {
  it("gives a finished run as the agent tool's answer, with its tools' rich parts", async () => {
    const agent = new Agent({
      provider: scriptedModel([
        { toolCalls: [{ id: "c1", name: "open_vault", input: { door: "north" } }] },
        { text: "The north door is open." },
      ]),
      model: "scripted",
      tools: [vault],
    });
    expect(endedRunStatus(await agent.send("Open the north door").final)).toEqual({
      status: "completed",
      result: {
        content: [
          { type: "text", text: "The north door is open." },
          { type: "image", data: "cGljdHVyZQ==", mimeType: "image/png" },
        ],
        isError: false,
      },
    });
  });

  it("gives a run stopped for want of an approval as failed, naming the calls that waited", async () => {
    const agent = new Agent({
      provider: scriptedModel([{ toolCalls: [{ id: "c1", name: "open_vault", input: { door: "north" } }] }]),
      model: "scripted",
      tools: [vault],
      approval: () => "ask",
      // Nobody answers: the run stops at once with the call pending.
      approvalTimeoutMs: 0,
    });
    const stopped = await agent.send("Open the north door").final;
    expect(stopped.finishReason).toBe("approval-required");
    expect(endedRunStatus(stopped)).toEqual({
      status: "failed",
      message:
        'The run stopped waiting for a person\'s approval of "open_vault" (its approvalTimeoutMs ran out).',
    });
  });
});

describe("workflowForTool", () => {
  const workflows = { ask_keeper: { name: "keeper" } };
  const names = { runs: "engineAgentRuns", workflow: "engineAgentWorkflow" };

  it("gives the tool's workflow", () => {
    expect(workflowForTool(workflows, "ask_keeper", names)).toBe(workflows.ask_keeper);
  });

  it("refuses a tool it has none for (an inherited name too), naming what to add", () => {
    for (const tool of ["ask_nobody", "constructor"]) {
      expect(() => workflowForTool(workflows, tool, names)).toThrow(
        expect.objectContaining({
          code: "invalid-argument",
          message: `engineAgentRuns has no workflow for the agent tool "${tool}": add it to \`workflows\` ("${tool}": a engineAgentWorkflow).`,
        }),
      );
    }
  });
});

describe("an answer and what became of it", () => {
  it("sends the call's signal with the item's digests, tagged with an answer id of its own", () => {
    const first = taggedAnswer(item, { deny: "not today" });
    const second = taggedAnswer(item, { deny: "not today" });
    expect(first).toEqual({
      name: "approval:3:call_7",
      value: {
        approved: false,
        reason: "not today",
        toolDigest: "a".repeat(64),
        argumentsDigest: "b".repeat(64),
        answerId: first.answerId,
      },
      answerId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(second.answerId).not.toBe(first.answerId);
  });

  it("refuses a decision that is none of the three, naming the call", () => {
    expect(() => taggedAnswer(item, "maybe" as never)).toThrow(
      expect.objectContaining({ code: "invalid-argument" }),
    );
  });

  it("is taken when the run took this answer, a duplicate with the decision taken when it took another", () => {
    const mine = taggedAnswer(item, "approve");
    expect(takenOutcome(mine.value, mine.answerId)).toEqual({
      status: "taken",
      decision: { approved: true },
    });
    const theirs = taggedAnswer(item, { deny: "no" });
    expect(takenOutcome(theirs.value, mine.answerId)).toEqual({
      status: "duplicate",
      decision: { approved: false, reason: "no" },
    });
    // A hand-built denial the run bound to nothing (no answer id, no reason): a duplicate denial.
    expect(takenOutcome({ approved: false, toolDigest: "missing" }, mine.answerId)).toEqual({
      status: "duplicate",
      decision: { approved: false },
    });
    // A reason that is not text is not passed on.
    expect(takenOutcome({ approved: false, reason: 7, answerId: mine.answerId }, mine.answerId)).toEqual({
      status: "taken",
      decision: { approved: false },
    });
  });

  it("is no outcome when what the run took is not an answer", () => {
    for (const taken of [null, undefined, true, "approve", ["approved"]]) {
      expect(takenOutcome(taken, "id")).toBeUndefined();
    }
  });

  it("shares one idempotency key for every answer to one call of one run", () => {
    expect(answerIdempotencyKey("run-42", item)).toBe("run-42:answer:3:call_7");
  });
});

describe("abortableWait", () => {
  it("resolves and rejects as the promise does while the signal has not aborted", async () => {
    const controller = new AbortController();
    await expect(abortableWait(Promise.resolve("done"), controller.signal)).resolves.toBe("done");
    await expect(abortableWait(Promise.reject(new Error("lost")), controller.signal)).rejects.toThrow("lost");
    await expect(abortableWait(Promise.resolve("no signal"), undefined)).resolves.toBe("no signal");
  });

  it("rejects with the aborted error as soon as the signal aborts, and at once when it had", async () => {
    const controller = new AbortController();
    const waiting = abortableWait(new Promise(() => undefined), controller.signal);
    controller.abort("enough");
    await expect(waiting).rejects.toMatchObject({
      code: "aborted",
      message: "Stopped waiting for the run's approvals: the signal was aborted.",
    });
    await expect(abortableWait(Promise.reject(new Error("late")), controller.signal)).rejects.toMatchObject({
      code: "aborted",
    });
    expect(() => throwIfWaitAborted(controller.signal)).toThrow(expect.objectContaining({ code: "aborted" }));
    expect(() => throwIfWaitAborted(new AbortController().signal)).not.toThrow();
  });
});
