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

  it("keeps a streaming call's partial arguments on its running item, until its tool-call completes them", () => {
    const delta = (input: Record<string, unknown>): ChatEvent => ({
      type: "tool-input-delta",
      id: "c1",
      name: "sdk_show",
      server: "sdk",
      input,
    });
    const streaming = foldChatEvents([user], [delta({ note: "Pa" }), delta({ note: "Paris" })]);
    expect(streaming).toEqual([
      user,
      {
        kind: "tool",
        id: "c1",
        name: "sdk_show",
        server: "sdk",
        input: { note: "Paris" },
        status: "running",
        inputStreaming: true,
      },
    ]);
    const complete = foldChatEvents(streaming, [
      { type: "tool-call", id: "c1", name: "sdk_show", server: "sdk", input: { note: "Paris", size: 2 } },
      // A late piece changes nothing: the call's arguments are complete.
      delta({ note: "Pa" }),
    ]);
    expect(complete).toEqual([
      user,
      {
        kind: "tool",
        id: "c1",
        name: "sdk_show",
        server: "sdk",
        input: { note: "Paris", size: 2 },
        status: "running",
      },
    ]);
    // One item per call: the item the pieces made is the one the call updates.
    expect(foldChatEvent(complete, delta({ note: "P" })).filter((item) => item.kind === "tool")).toHaveLength(
      1,
    );
    // A run that fails while the arguments stream ends the call.
    const failed = foldChatEvent(streaming, { type: "error", message: "Stopped.", aborted: true });
    expect(failed[1]).toMatchObject({ status: "stopped", inputStreaming: true });
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

  describe("a program (code mode)", () => {
    const source =
      "const a = await tools.notes.read({ n: 1 });\nreturn await tools.notes.write({ text: a });";
    const text = (value: string) => ({ content: [{ type: "text" as const, text: value }], isError: false });
    const program: ChatEvent = {
      type: "tool-call",
      id: "p",
      name: "run_program",
      server: null,
      input: { code: source },
      program: source,
    };
    const nestedCall = (sequence: number, name: string, input: unknown): ChatEvent => ({
      type: "tool-call",
      id: `p.${sequence}`,
      name,
      server: "notes",
      input,
      parent: { id: "p", sequence },
    });
    const nestedResult = (sequence: number, name: string, value: string): ChatEvent => ({
      type: "tool-result",
      id: `p.${sequence}`,
      name,
      server: "notes",
      result: text(value),
      durationMs: 3.4,
      outcome: "success",
      parent: { id: "p", sequence },
    });
    const asked = (sequence: number, name: string, input: unknown): ChatEvent => ({
      type: "approval-request",
      id: `p.${sequence}`,
      name,
      server: "notes",
      input,
      item: {
        id: `p.${sequence}`,
        name,
        input,
        step: 1,
        reason: "it could send what read returned",
        parent: { id: "p", name: "run_program", sequence, program: source },
      },
    });

    it("lists the program's calls under it in sequence order as they come, with approval, outcome and the program's result", () => {
      const events: ChatEvent[] = [
        program,
        nestedCall(1, "notes_read", { n: 1 }),
        // A later call can start before an earlier one (Promise.all): it is still listed after it.
        nestedCall(3, "notes_read", { n: 3 }),
        nestedCall(2, "notes_write", { text: "one" }),
        nestedResult(1, "notes_read", "one"),
        asked(2, "notes_write", { text: "one" }),
        { type: "approval-answered", id: "p.2", approved: true },
        // The approved call's tool-call comes again when the run resumes: it stays one entry.
        nestedCall(2, "notes_write", { text: "one" }),
        nestedResult(2, "notes_write", "written"),
        { ...nestedResult(3, "notes_read", "three"), outcome: "error" } as ChatEvent,
        {
          type: "tool-result",
          id: "p",
          name: "run_program",
          server: null,
          result: text('Returned: "written"'),
          durationMs: 40.2,
          outcome: "success",
        },
      ];
      const [, item] = foldChatEvents([user], events);
      expect(item).toEqual({
        kind: "tool",
        id: "p",
        name: "run_program",
        server: null,
        input: { code: source },
        status: "done",
        result: text('Returned: "written"'),
        durationMs: 40,
        outcome: "success",
        program: {
          source,
          calls: [
            {
              id: "p.1",
              name: "notes_read",
              server: "notes",
              input: { n: 1 },
              status: "done",
              sequence: 1,
              result: text("one"),
              durationMs: 3,
              outcome: "success",
            },
            {
              id: "p.2",
              name: "notes_write",
              server: "notes",
              input: { text: "one" },
              status: "done",
              sequence: 2,
              program: source,
              reason: "it could send what read returned",
              result: text("written"),
              durationMs: 3,
              outcome: "success",
            },
            {
              id: "p.3",
              name: "notes_read",
              server: "notes",
              input: { n: 3 },
              status: "done",
              sequence: 3,
              result: text("three"),
              durationMs: 3,
              outcome: "error",
            },
          ],
        },
      });
    });

    it("keeps a denied call denied when its result comes, and ends the program's waiting calls on an error", () => {
      const waiting = foldChatEvents(
        [user],
        [program, nestedCall(1, "notes_read", {}), asked(2, "notes_write", {})],
      );
      const denied = foldChatEvents(waiting, [
        { type: "approval-answered", id: "p.2", approved: false },
        { ...nestedResult(2, "notes_write", "The user denied this call."), outcome: "denied" } as ChatEvent,
      ]);
      expect(denied[1]).toMatchObject({
        status: "running",
        program: { calls: [{ status: "running" }, { status: "denied", outcome: "denied" }] },
      });
      const stopped = foldChatEvent(waiting, { type: "error", message: "Stopped.", aborted: true });
      expect(stopped[1]).toMatchObject({
        status: "stopped",
        program: { calls: [{ status: "stopped" }, { status: "stopped" }] },
      });
    });

    it("a program ended by a failed run and asked again (the stored state still waits) runs on to its result", () => {
      const failed = foldChatEvents(
        [user],
        [
          program,
          asked(1, "notes_read", {}),
          { type: "error", message: "The run failed: 400", aborted: false },
          // The server publishes the stored state's waiting calls again, with their items.
          asked(1, "notes_read", {}),
        ],
      );
      expect(failed[1]).toMatchObject({
        status: "running",
        program: { calls: [{ status: "awaiting-approval" }] },
      });
      const done = foldChatEvents(failed, [
        { type: "approval-answered", id: "p.1", approved: true },
        nestedResult(1, "notes_read", "one"),
        {
          type: "tool-result",
          id: "p",
          name: "run_program",
          server: null,
          result: text("Returned: 1"),
          durationMs: 2,
        },
      ]);
      expect(done[1]).toMatchObject({ status: "done", program: { calls: [{ status: "done" }] } });
    });

    it("replaces only the program's item and the call that changed: the other calls keep their objects", () => {
      const before = foldChatEvents(
        [user],
        [program, nestedCall(1, "notes_read", {}), nestedCall(2, "notes_read", {})],
      );
      const frozen = structuredClone(before);
      const after = foldChatEvent(before, nestedResult(2, "notes_read", "x"));
      expect(before).toEqual(frozen);
      const [beforeItem, afterItem] = [before[1], after[1]] as Extract<TranscriptItem, { kind: "tool" }>[];
      expect(afterItem).not.toBe(beforeItem);
      expect(afterItem!.program!.calls[0]).toBe(beforeItem!.program!.calls[0]);
      expect(afterItem!.program!.calls[1]).not.toBe(beforeItem!.program!.calls[1]);
      // A result for a call no program listed changes nothing.
      const unknown = foldChatEvent(before, nestedResult(9, "notes_read", "x"));
      expect(unknown.every((entry, index) => entry === before[index])).toBe(true);
    });

    it("names a vendor-run program's card and shows its source from its first call, before anything asks", () => {
      const vendorSource = 'balance = await ledger_read_balance({"account": "a"})';
      const [, card] = foldChatEvents(
        [user],
        [
          {
            type: "tool-call",
            id: "toolu_balance",
            name: "ledger_read_balance",
            server: "ledger",
            input: { account: "a" },
            parent: {
              id: "srvtoolu_program",
              sequence: 1,
              name: "code_execution_20250825",
              program: vendorSource,
            },
          },
        ],
      );
      expect(card).toEqual({
        kind: "tool",
        id: "srvtoolu_program",
        name: "code_execution_20250825",
        server: null,
        input: { code: vendorSource },
        status: "running",
        program: {
          source: vendorSource,
          calls: [
            {
              id: "toolu_balance",
              name: "ledger_read_balance",
              server: "ledger",
              input: { account: "a" },
              status: "running",
              sequence: 1,
            },
          ],
        },
      });
    });

    it("lists a program's call asked about with no program in the transcript under a program made from the request's parent", () => {
      const [, item] = foldChatEvents([user], [asked(4, "notes_write", { text: "x" })]);
      expect(item).toEqual({
        kind: "tool",
        id: "p",
        name: "run_program",
        server: null,
        input: { code: source },
        status: "running",
        program: {
          source,
          calls: [
            {
              id: "p.4",
              name: "notes_write",
              server: "notes",
              input: { text: "x" },
              status: "awaiting-approval",
              sequence: 4,
              program: source,
              reason: "it could send what read returned",
            },
          ],
        },
      });
    });
  });
});
