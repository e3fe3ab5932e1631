import type { MediaLimits, Message, Tool, ToolMessage } from "@junction/types";
import { describe, expect, it } from "vitest";
import { type CallLedger, PrivateDataReads, privateDataReads } from "./exfiltration-guard.js";
import { modelFacingMessages } from "./media-limits.js";
import { MessageFold } from "./message-fold.js";
import { estimateRequestSize, RequestSizeFold } from "./token-estimate.js";
import type { RegisteredTool } from "./tool-registry.js";
import { budgetedMessages, hasCutResults, ModelViewFolds, toolResultBudget } from "./tool-result-budget.js";

const user = (text: string): Message => ({ role: "user", content: text });
const call = (id: string, name: string): Message => ({
  role: "assistant",
  content: [{ type: "tool-call", id, name, input: { id } }],
});
const result = (id: string, name: string, text: string): ToolMessage => ({
  role: "tool",
  content: [{ type: "tool-result", toolCallId: id, toolName: name, output: text }],
});
const image = (id: string, name: string, bytes: number): ToolMessage => ({
  role: "tool",
  content: [
    {
      type: "tool-result",
      toolCallId: id,
      toolName: name,
      output: {
        content: [{ type: "image", data: "A".repeat((bytes * 4) / 3), mimeType: "image/png" }],
        isError: false,
      },
    },
  ],
});

/** A turn: the user's message, a call, and its result (`size` characters of text). */
function turn(index: number, name: string, size = 20): Message[] {
  const id = `c${index}`;
  return [user(`Question ${index}.`), call(id, name), result(id, name, "r".repeat(size))];
}

function registered(name: string, openWorld: boolean): [string, RegisteredTool] {
  const tool = {
    name,
    description: name,
    inputSchema: { type: "object" },
    annotations: { openWorldHint: openWorld },
    execute: async () => "",
  } as unknown as Tool;
  return [name, { tool, deferral: {} }];
}

describe("MessageFold", () => {
  const counting = () => {
    const folded: string[] = [];
    const fold = new MessageFold<{ count: number }>(
      () => ({ count: 0 }),
      (state, message) => {
        state.count++;
        folded.push(typeof message.content === "string" ? message.content : message.role);
      },
    );
    return { fold, folded };
  };

  it("folds only the messages appended since the last call, and starts over on another conversation, a replaced message, a shorter list or another key", () => {
    const { fold, folded } = counting();
    const conversation = [user("a"), user("b")];
    expect(fold.over(conversation).count).toBe(2);
    conversation.push(user("c"));
    expect(fold.over(conversation).count).toBe(3);
    expect(folded).toEqual(["a", "b", "c"]);
    // The same messages in another array are the same conversation.
    expect(fold.over([...conversation]).count).toBe(3);
    expect(folded).toEqual(["a", "b", "c"]);

    conversation[1] = user("B");
    expect(fold.over(conversation).count).toBe(3);
    expect(folded.slice(3)).toEqual(["a", "B", "c"]);
    expect(fold.over(conversation.slice(0, 2)).count).toBe(2);
    expect(folded.slice(6)).toEqual(["a", "B"]);
    expect(fold.over(conversation.slice(0, 2), "other").count).toBe(2);
    expect(folded.slice(8)).toEqual(["a", "B"]);
  });

  it("starts over after a step that threw, so a half-folded message is not counted twice", () => {
    let fail = true;
    const fold = new MessageFold<{ count: number }>(
      () => ({ count: 0 }),
      (state, message) => {
        state.count++;
        if (message.content === "bad" && fail) throw new TypeError("bad message");
      },
    );
    const conversation = [user("a"), user("bad"), user("c")];
    expect(() => fold.over(conversation)).toThrow("bad message");
    fail = false;
    expect(fold.over(conversation).count).toBe(3);
  });
});

describe("the run's scans, kept across steps, give what a scan afresh gives", () => {
  const budget = toolResultBudget(4_000); // 1,000 tokens: 3,000 characters a result
  const ledger: CallLedger = { notRun: new Set(["c3"]), readPrivate: new Set(["c5"]) };

  /** A conversation grown step by step, as a run grows it: long results, media, private reads. */
  function growing(): Message[][] {
    const steps: Message[][] = [];
    const conversation: Message[] = [];
    for (let index = 0; index < 40; index++) {
      const name = ["web", "files", "notes", "mail"][index % 4]!;
      conversation.push(...turn(index, name, index === 17 ? 5_000 : 20));
      if (index === 23) conversation.push(call("m23", "camera"), image("m23", "camera", 2_100));
      if (index % 6 === 5) steps.push(conversation.slice());
    }
    steps.push(conversation.slice());
    return steps;
  }

  it("the media view, the budgeted view, the cut check and the request size, every step", () => {
    const view = new ModelViewFolds();
    const sizes = new RequestSizeFold();
    const limits: MediaLimits = { maxImageBytes: 1_000 };
    for (const [step, conversation] of growing().entries()) {
      const readable = step >= 3;
      const media = view.media.view(conversation, limits);
      const fresh = modelFacingMessages(conversation, limits);
      expect(media).toEqual(fresh);
      expect(
        media.messages.every(
          (message, index) => message === fresh.messages[index] || message.role === "tool",
        ),
      );
      const budgeted = view.budgeted({ messages: media.messages, budget, readable });
      expect(budgeted).toEqual(budgetedMessages({ messages: fresh.messages, budget, readable }));
      expect(view.hasCutResults(conversation, budget)).toBe(hasCutResults(conversation, budget));
      const request = { system: "Be brief.", messages: budgeted.messages, contextWindow: 4_000 };
      expect(sizes.size(request)).toEqual(estimateRequestSize(request));
    }
    const last = growing().at(-1)!;
    // The long result (turn 17) and the image (turn 23) were found once they were in the conversation.
    expect(view.hasCutResults(last, budget)).toBe(true);
    expect(view.media.view(last, limits).oversized.map((part) => part.toolCallId)).toEqual(["m23"]);
    // Raw, the image is over the result budget too (an image counts 1,600 tokens).
    expect(
      view.budgeted({ messages: last, budget, readable: true }).cut.map((cut) => cut.part.toolCallId),
    ).toEqual(["c17", "m23"]);
  });

  it("a result cut only under a smaller window, media over a lower limit, a replaced message: each counted as afresh", () => {
    const view = new ModelViewFolds();
    const sizes = new RequestSizeFold();
    const conversation = [...turn(0, "web", 2_000)];
    expect(view.hasCutResults(conversation, budget)).toBe(false);
    expect(view.hasCutResults(conversation, toolResultBudget(1_000))).toBe(false);
    conversation.push(...turn(1, "web", 4_000));
    expect(view.hasCutResults(conversation, budget)).toBe(true);
    // A message replaced in place (not how a run goes, but the scan must not answer for the old one).
    const replaced = conversation.slice();
    replaced[5] = result("c1", "web", "short now");
    expect(view.hasCutResults(replaced, budget)).toBe(false);
    expect(view.hasCutResults(conversation, budget)).toBe(true);
    conversation.push(call("m", "camera"), image("m", "camera", 600));
    expect(view.media.view(conversation, { maxImageBytes: 1_000 }).oversized).toEqual([]);
    expect(view.media.view(conversation, { maxImageBytes: 100 }).oversized.map((part) => part.bytes)).toEqual(
      [600],
    );
    const request = { messages: conversation, contextWindow: 4_000 };
    expect(sizes.size(request)).toEqual(estimateRequestSize(request));
    const shrunk = { messages: replaced, contextWindow: 4_000 };
    expect(sizes.size(shrunk)).toEqual(estimateRequestSize(shrunk));
  });

  it("the private data read: the same names in the same order every step, with the step's tools", () => {
    const reads = new PrivateDataReads(ledger);
    const open = new Map([registered("web", true), registered("files", true), registered("mail", true)]);
    const closedFiles = new Map([
      registered("web", true),
      registered("files", false),
      registered("mail", true),
    ]);
    for (const [step, conversation] of growing().entries()) {
      // The files tool claims closed-world on some steps: results already folded count by what it is now.
      const tools = step % 2 === 0 ? open : closedFiles;
      expect(reads.of(conversation, tools)).toEqual(privateDataReads(conversation, tools, ledger));
    }
    const last = growing().at(-1)!;
    // "notes" is no longer known (counts), c5 of "files" ran closed-world (counts even when open now),
    // c3 of "mail" never ran, "camera" is unknown.
    expect(reads.of(last, open)).toEqual(["notes", "files", "camera"]);
    expect(reads.of(last, closedFiles)).toEqual(["files", "notes", "camera"]);
    expect(reads.of(last, new Map([...open, registered("notes", true), registered("camera", true)]))).toEqual(
      ["files"],
    );
  });

  it("the private data read: a run whose new results read private data counts them on the next step", () => {
    const tools = new Map([registered("web", true), registered("diary", false)]);
    const reads = new PrivateDataReads({ notRun: new Set(), readPrivate: new Set() });
    const conversation: Message[] = [];
    for (let index = 0; index < 200; index++) conversation.push(...turn(index, "web"));
    expect(reads.of(conversation, tools)).toEqual([]);
    conversation.push(call("d", "diary"), result("d", "diary", "Dear diary"));
    expect(reads.of(conversation, tools)).toEqual(["diary"]);
    conversation.push(...turn(200, "web"));
    expect(reads.of(conversation, tools)).toEqual(["diary"]);
  });
});
