import { describe, expect, it } from "vitest";
import {
  approvalSignalFor,
  argumentsDigest,
  boundAnswer,
  canonicalJSON,
  type PendingToolCall,
} from "./index.js";
import { answerMismatch } from "./pending-approvals.js";
import type { ApprovalAnswer } from "./run-journal.js";

const item: PendingToolCall = {
  id: "call_7",
  name: "notes__save_note",
  source: "notes",
  input: { text: "buy milk", tags: ["home"] },
  step: 3,
  toolDigest: "a".repeat(64),
  argumentsDigest: "b".repeat(64),
};

describe("approvalSignalFor", () => {
  it("names the call's signal and carries the item's digests with each decision", () => {
    const digests = { toolDigest: "a".repeat(64), argumentsDigest: "b".repeat(64) };
    expect(approvalSignalFor(item, "approve")).toEqual({
      name: "approval:3:call_7",
      value: { approved: true, ...digests },
    });
    expect(approvalSignalFor(item, "deny")).toEqual({
      name: "approval:3:call_7",
      value: { approved: false, ...digests },
    });
    expect(approvalSignalFor(item, { deny: "not today" })).toEqual({
      name: "approval:3:call_7",
      value: { approved: false, reason: "not today", ...digests },
    });
  });

  it("refuses a decision that is none of the three, naming the call", () => {
    expect(() => approvalSignalFor(item, "maybe" as never)).toThrow(
      expect.objectContaining({
        code: "invalid-argument",
        message: 'The decision for "call_7" must be "approve", "deny" or { deny: "reason" }, got "maybe".',
      }),
    );
  });
});

describe("argumentsDigest", () => {
  it("is the SHA-256 hex of the canonical JSON, whatever the order of the keys", async () => {
    expect(canonicalJSON({ b: 1, a: { d: 2, c: [3] } })).toBe('{"a":{"c":[3],"d":2},"b":1}');
    expect(await argumentsDigest({ b: 1, a: 2 })).toBe(await argumentsDigest({ a: 2, b: 1 }));
    // echo -n '{"a":2,"b":1}' | sha256sum
    expect(await argumentsDigest({ a: 2, b: 1 })).toBe(
      "d3626ac30a87e6f7a6428233b3c68299976865fa5508e4267c5415c76af7a772",
    );
  });
});

describe("one approval item everywhere", () => {
  it("the approval event carries the same item the stopped run lists in `pending`, keyed by approvalKey", async () => {
    const { Agent, approvalKey, tool } = await import("./index.js");
    const { scriptedModel } = await import("./testing/index.js");
    const { z } = await import("zod");
    const save = tool({
      name: "save_note",
      description: "Saves a note",
      schema: z.object({ text: z.string() }),
      execute: async () => "saved",
    });
    const agent = new Agent({
      provider: scriptedModel([
        { toolCalls: [{ id: "c1", name: "save_note", input: { text: "buy milk" } }] },
      ]),
      model: "scripted",
      tools: [save],
      approval: () => "ask",
    });
    const handle = agent.send("Save it", { approvalTimeoutMs: 0 });
    const asked: PendingToolCall[] = [];
    for await (const event of handle) if (event.type === "tool-approval-request") asked.push(event.item);
    const result = await handle.final;
    expect(result.finishReason).toBe("approval-required");
    expect(asked).toEqual(result.pending);
    expect(asked[0]).toMatchObject({
      id: "c1",
      name: "save_note",
      input: { text: "buy milk" },
      step: 1,
      argumentsDigest: await argumentsDigest({ text: "buy milk" }),
      toolDigest: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(approvalKey(asked[0] as PendingToolCall)).toBe("approval:1:c1");
  });
});

describe("a step's questions come in the model's order", () => {
  it("a call whose item takes longer to make still asks before the calls after it", async () => {
    const { Agent, tool } = await import("./index.js");
    const { scriptedModel } = await import("./testing/index.js");
    const { z } = await import("zod");
    const save = tool({
      name: "save_note",
      description: "Saves a note",
      schema: z.object({ text: z.string() }),
      execute: async () => "saved",
    });
    const agent = new Agent({
      provider: scriptedModel([
        {
          toolCalls: [
            // The first call's arguments take far longer to digest than the others'.
            { id: "big", name: "save_note", input: { text: "x".repeat(4_000_000) } },
            { id: "small1", name: "save_note", input: { text: "a" } },
            { id: "small2", name: "save_note", input: { text: "b" } },
          ],
        },
      ]),
      model: "scripted",
      tools: [save],
      maxToolOutputChars: 10_000_000,
      approval: () => "ask",
    } as ConstructorParameters<typeof Agent>[0]);
    const handle = agent.send("Save them", { approvalTimeoutMs: 0 });
    const asked: string[] = [];
    for await (const event of handle) if (event.type === "tool-approval-request") asked.push(event.id);
    await handle.final;
    expect(asked).toEqual(["big", "small1", "small2"]);
  });
});

describe("boundAnswer", () => {
  it("keeps an answer that carries the call's digests, and any denial, as it came", () => {
    const { value } = approvalSignalFor(item, "approve");
    expect(boundAnswer(item, value)).toBe(value);
    expect(boundAnswer(item, { approved: false })).toEqual({ approved: false });
    expect(boundAnswer(item, { approved: false, reason: "no" })).toEqual({ approved: false, reason: "no" });
    // A call listed without digests binds nothing more than its name.
    const bare: PendingToolCall = { id: "call_1", name: "save", input: {}, step: 1 };
    expect(boundAnswer(bare, { approved: true })).toEqual({ approved: true });
  });

  it("turns an approval without the call's digests into a denial that answerMismatch names", () => {
    const none = boundAnswer(item, { approved: true });
    expect(none).toEqual({ approved: false, toolDigest: "missing", argumentsDigest: "missing" });
    expect(answerMismatch(item, none as ApprovalAnswer)).toBe(
      "the answer carried no tool digest and no arguments digest (it was not given for the call as listed: answer with answerApproval and an item of pendingApprovals), so it was not run",
    );
    const toolOnly = boundAnswer(item, { approved: true, toolDigest: "a".repeat(64) });
    expect(answerMismatch(item, toolOnly as ApprovalAnswer)).toBe(
      "the answer carried no arguments digest (it was not given for the call as listed: answer with answerApproval and an item of pendingApprovals), so it was not run",
    );
  });
});
