import { describe, expect, it } from "vitest";
import type { ChatEvent, TranscriptItem } from "./api-types.js";
import { foldChatEvent, foldChatEvents } from "./fold-chat-events.js";

const result = { content: [{ type: "text" as const, text: "7" }], isError: false };
const user: TranscriptItem = { kind: "user", text: "add 3 and 4" };

describe("foldChatEvent", () => {
  it("folds a turn with an approved tool call, progress and text into the transcript", () => {
    const events: ChatEvent[] = [
      { type: "run-start", runId: "r1", provider: "offline", model: "scripted" },
      { type: "text-delta", text: "I'll add " },
      { type: "text-delta", text: "them. " },
      { type: "tool-call", id: "c1", name: "everything_get-sum", server: "everything", input: { a: 3 } },
      {
        type: "approval-request",
        id: "c1",
        name: "everything_get-sum",
        server: "everything",
        input: { a: 3, b: 4 },
      },
      { type: "approval-answered", id: "c1", approved: true },
      { type: "tool-progress", id: "c1", progress: 1, total: 2, message: "half" },
      {
        type: "tool-result",
        id: "c1",
        name: "everything_get-sum",
        server: "everything",
        result,
        durationMs: 12.4,
      },
      { type: "text-delta", text: "It is 7." },
      { type: "finish", reason: "stop", text: "It is 7." },
    ];
    expect(foldChatEvents([user], events)).toEqual([
      user,
      { kind: "assistant", text: "I'll add them. " },
      {
        kind: "tool",
        id: "c1",
        name: "everything_get-sum",
        server: "everything",
        input: { a: 3, b: 4 },
        status: "done",
        result,
        durationMs: 12,
      },
      { kind: "assistant", text: "It is 7." },
    ]);
  });

  it("keeps a running call's latest progress, and ignores progress for calls not running", () => {
    const running = foldChatEvents(
      [user],
      [
        { type: "tool-call", id: "c1", name: "slow", server: null, input: {} },
        { type: "tool-progress", id: "c1", progress: 1, total: 3 },
        { type: "tool-progress", id: "c1", progress: 2, total: 3 },
      ],
    );
    expect(running[1]).toMatchObject({ status: "running", progress: { progress: 2, total: 3 } });
    const denied = foldChatEvents(
      [user],
      [
        { type: "approval-request", id: "c2", name: "slow", server: null, input: {} },
        { type: "approval-answered", id: "c2", approved: false },
        { type: "tool-progress", id: "c2", progress: 1 },
        {
          type: "tool-result",
          id: "c2",
          name: "slow",
          server: null,
          result: { content: [{ type: "text", text: "denied" }], isError: true },
          durationMs: 0,
        },
      ],
    );
    expect(denied[1]).toMatchObject({ status: "denied", durationMs: 0 });
    expect(denied[1]).not.toHaveProperty("progress");
  });

  it("shows a warning code once per turn, and again in the next turn", () => {
    const warning: ChatEvent = { type: "warning", code: "usage-missing", message: "no token usage" };
    const first = foldChatEvents([user], [warning, { type: "text-delta", text: "a" }, warning, warning]);
    expect(first).toEqual([
      user,
      { kind: "notice", level: "warning", text: "no token usage", code: "usage-missing" },
      { kind: "assistant", text: "a" },
    ]);
    const other = foldChatEvent(first, { type: "warning", code: "other", message: "else" });
    expect(other).toHaveLength(4);
    const second = foldChatEvents([...first, { kind: "user", text: "again" }], [warning, warning]);
    expect(second.filter((item) => item.kind === "notice")).toHaveLength(2);
  });

  it("ends running and waiting calls on an error: stopped when aborted, denied otherwise", () => {
    const started = foldChatEvents(
      [user],
      [
        { type: "tool-call", id: "c1", name: "a", server: null, input: {} },
        { type: "approval-request", id: "c2", name: "b", server: null, input: {} },
      ],
    );
    expect(foldChatEvent(started, { type: "error", message: "Stopped.", aborted: true })).toEqual([
      user,
      { kind: "tool", id: "c1", name: "a", server: null, input: {}, status: "stopped" },
      { kind: "tool", id: "c2", name: "b", server: null, input: {}, status: "stopped" },
      { kind: "notice", level: "info", text: "Stopped." },
    ]);
    expect(
      foldChatEvent(started, { type: "error", message: "The run failed: x", aborted: false }).slice(1),
    ).toEqual([
      { kind: "tool", id: "c1", name: "a", server: null, input: {}, status: "denied" },
      { kind: "tool", id: "c2", name: "b", server: null, input: {}, status: "denied" },
      { kind: "notice", level: "error", text: "The run failed: x" },
    ]);
  });

  it("leaves its input untouched and replaces only the items it changes", () => {
    const before = foldChatEvents(
      [user],
      [
        { type: "text-delta", text: "x" },
        { type: "tool-call", id: "c1", name: "a", server: null, input: {} },
      ],
    );
    const frozen = structuredClone(before);
    const after = foldChatEvent(before, { type: "tool-progress", id: "c1", progress: 1 });
    expect(before).toEqual(frozen);
    expect(after[0]).toBe(before[0]);
    expect(after[1]).toBe(before[1]);
    expect(after[2]).not.toBe(before[2]);
  });
  it("keeps one context bar per turn: each step's request size replaces the turn's earlier one", () => {
    const size = (tools: number, toolResults: number) => ({
      tools,
      history: 50,
      toolResults,
      contextWindow: 1000,
    });
    let transcript = foldChatEvent([{ kind: "user", text: "first" }], { type: "context", size: size(10, 0) });
    transcript = foldChatEvent(transcript, { type: "text-delta", text: "Working" });
    transcript = foldChatEvent(transcript, { type: "context", size: size(10, 30) });
    expect(transcript).toEqual([
      { kind: "user", text: "first" },
      { kind: "assistant", text: "Working" },
      { kind: "context", size: size(10, 30) },
    ]);
    // A new turn keeps the earlier turn's bar and gets its own.
    transcript = foldChatEvent([...transcript, { kind: "user", text: "second" }], {
      type: "context",
      size: size(10, 40),
    });
    expect(transcript.filter((item) => item.kind === "context")).toHaveLength(2);
  });
  it("keeps a run's trace id as an item, after the run's other items, so a reload shows the trace", () => {
    const transcript = foldChatEvents(
      [{ kind: "user", text: "hi" }],
      [
        { type: "run-start", runId: "r", provider: "offline", model: "m" },
        { type: "text-delta", text: "Hello" },
        { type: "trace", traceId: "0af7651916cd43dd8448eb211c80319c" },
        { type: "finish", reason: "stop", text: "Hello" },
      ],
    );
    expect(transcript).toEqual([
      { kind: "user", text: "hi" },
      { kind: "assistant", text: "Hello" },
      { kind: "trace", traceId: "0af7651916cd43dd8448eb211c80319c" },
    ]);
  });
});
