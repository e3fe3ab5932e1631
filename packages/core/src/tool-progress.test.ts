import { MCP } from "@junction/mcp-client";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { Agent, type AgentEvent, stream, tool } from "./index.js";
import { scriptedModel } from "./testing/index.js";
import {
  checkToolProgress,
  MAX_TOOL_PROGRESS_MESSAGE_CHARS,
  TOOL_PROGRESS_INTERVAL_MS,
  ToolProgressReporter,
} from "./tool-progress.js";

// A real MCP server written with the official SDK, in memory: `work` reports progress at a steady
// pace and tags every report and its result with the server's request id, so a report can be
// traced to the call that sent it; `flood` sends reports as fast as it can; `long-message` sends
// one report with a 10,000-character message.
const server = new McpServer({ name: "progress", version: "1.0.0" });
server.registerTool(
  "work",
  { description: "Works in steps", inputSchema: { steps: z.number(), pauseMs: z.number() } },
  async ({ steps, pauseMs }, extra) => {
    const token = extra._meta?.progressToken;
    const tag = `request ${String(extra.requestId)}`;
    for (let step = 1; step <= steps; step++) {
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
      if (token !== undefined) {
        await extra.sendNotification({
          method: "notifications/progress",
          params: { progressToken: token, progress: step, total: steps, message: `${tag} step ${step}` },
        });
      }
    }
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
    return { content: [{ type: "text", text: tag }] };
  },
);
server.registerTool(
  "flood",
  { description: "Floods progress", inputSchema: { count: z.number(), thenWaitMs: z.number() } },
  async ({ count, thenWaitMs }, extra) => {
    const token = extra._meta?.progressToken;
    for (let progress = 1; progress <= count && token !== undefined; progress++) {
      await extra.sendNotification({
        method: "notifications/progress",
        params: { progressToken: token, progress, total: count },
      });
    }
    await new Promise((resolve) => setTimeout(resolve, thenWaitMs));
    return { content: [{ type: "text", text: `sent ${count}` }] };
  },
);
server.registerTool(
  "long-message",
  { description: "One report with a long message", inputSchema: {} },
  async (_input, extra) => {
    const token = extra._meta?.progressToken;
    if (token !== undefined) {
      await extra.sendNotification({
        method: "notifications/progress",
        params: { progressToken: token, progress: 1, message: "x".repeat(10_000) },
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
    return { content: [{ type: "text", text: "done" }] };
  },
);
let mcp: MCP;

beforeAll(async () => {
  mcp = new MCP({ transport: "memory", server });
  await mcp.connect();
});

afterAll(async () => {
  await mcp?.close();
});

async function collect(handle: AsyncIterable<AgentEvent> & { final: Promise<unknown> }) {
  const events: { event: AgentEvent; at: number }[] = [];
  for await (const event of handle) events.push({ event, at: performance.now() });
  await handle.final;
  return events;
}

type Progress = Extract<AgentEvent, { type: "tool-progress" }>;
const isProgress = (event: AgentEvent): event is Progress => event.type === "tool-progress";

describe("tool-progress events from an MCP server", () => {
  it("gives two identical concurrent calls (same tool, same arguments, same model id) each its own progress", async () => {
    const provider = scriptedModel([
      {
        toolCalls: [
          { id: "call", name: "work", input: { steps: 3, pauseMs: 250 } },
          { id: "call", name: "work", input: { steps: 3, pauseMs: 250 } },
        ],
      },
      { text: "done" },
    ]);
    const events = (await collect(new Agent({ provider, model: "m", mcps: [mcp] }).send("go"))).map(
      (entry) => entry.event,
    );
    const results = new Map(
      events.flatMap((event) =>
        event.type === "tool-result" && event.result.content[0]?.type === "text"
          ? [[event.id, event.result.content[0].text] as const]
          : [],
      ),
    );
    // Core renamed the reused id, so each call has its own.
    expect([...results.keys()].sort()).toEqual(["call", "call_2"]);
    const [first, second] = [results.get("call")!, results.get("call_2")!];
    expect(first).not.toBe(second);
    for (const [id, tag] of results) {
      const progress = events.filter(isProgress).filter((event) => event.id === id);
      // Every report of this call, in order, and only its own (the server tagged each with its request).
      expect(progress).toEqual(
        [1, 2, 3].map((step) => ({
          type: "tool-progress",
          id,
          name: "work",
          progress: step,
          total: 3,
          message: `${tag} step ${step}`,
        })),
      );
      const resultIndex = events.findIndex((event) => event.type === "tool-result" && event.id === id);
      const lastProgressIndex = events.findLastIndex((event) => isProgress(event) && event.id === id);
      expect(lastProgressIndex).toBeLessThan(resultIndex);
    }
    // The two calls ran at the same time: their reports interleave.
    const order = events.filter(isProgress).map((event) => event.id);
    expect(order.indexOf("call_2")).toBeLessThan(order.lastIndexOf("call"));
  }, 20_000);

  it("coalesces a flood of 5,000 reports to at most one event per 100 ms, keeping the latest", async () => {
    const provider = scriptedModel([
      { toolCalls: [{ id: "f", name: "flood", input: { count: 5000, thenWaitMs: 400 } }] },
      { text: "done" },
    ]);
    // Timed as emitted (onEvent is called synchronously), not as read.
    const events: { event: AgentEvent; at: number }[] = [];
    const onEvent = (event: AgentEvent) => events.push({ event, at: performance.now() });
    const started = performance.now();
    await new Agent({ provider, model: "m", mcps: [mcp], onEvent }).send("go").final;
    const progress = events.filter((entry) => isProgress(entry.event));
    const result = events.find((entry) => entry.event.type === "tool-result")!;
    const floodMs = result.at - started;
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.length).toBeLessThanOrEqual(Math.ceil(floodMs / TOOL_PROGRESS_INTERVAL_MS) + 1);
    expect(progress.length).toBeLessThan(100);
    // The spacing of the events is asserted on a fake clock ("ToolProgressReporter" below): timed
    // here, a pause of the test process between an emission and its timestamp shortens a gap.
    // The first report goes out at once; the burst's last report arrives after the pause.
    expect(progress[0]!.event).toEqual({
      type: "tool-progress",
      id: "f",
      name: "flood",
      progress: 1,
      total: 5000,
    });
    expect(progress.at(-1)!.event).toEqual({
      type: "tool-progress",
      id: "f",
      name: "flood",
      progress: 5000,
      total: 5000,
    });
    const values = progress.map((entry) => (entry.event as Progress).progress);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(result.event).toMatchObject({
      type: "tool-result",
      id: "f",
      result: { content: [{ text: "sent 5000" }] },
    });
    expect(events.indexOf(progress.at(-1)!)).toBeLessThan(events.indexOf(result));
  }, 30_000);

  it("cuts a server's 10,000-character progress message to 500 characters", async () => {
    const provider = scriptedModel([{ toolCalls: [{ id: "l", name: "long-message" }] }, { text: "done" }]);
    const events = (await collect(new Agent({ provider, model: "m", mcps: [mcp] }).send("go"))).map(
      (entry) => entry.event,
    );
    const progress = events.filter(isProgress);
    expect(progress).toEqual([
      {
        type: "tool-progress",
        id: "l",
        name: "long-message",
        progress: 1,
        message: `${"x".repeat(MAX_TOOL_PROGRESS_MESSAGE_CHARS - 1)}…`,
      },
    ]);
    expect(progress[0]!.message).toHaveLength(MAX_TOOL_PROGRESS_MESSAGE_CHARS);
  }, 20_000);

  it("reaches stream()'s events for the call onToolCall ran", async () => {
    const tools = await mcp.listTools();
    const provider = scriptedModel([
      { toolCalls: [{ id: "s1", name: "work", input: { steps: 2, pauseMs: 200 } }] },
      { text: "done" },
    ]);
    const handle = stream({
      provider,
      model: "m",
      messages: [{ role: "user", content: "go" }],
      tools: await mcp.listToolDefinitions(),
      onToolCall: async ({ name, input }, context) =>
        tools.find((candidate) => candidate.name === name)?.execute(input, context) ?? null,
    });
    const events = (await collect(handle)).map((entry) => entry.event);
    const result = events.find((event) => event.type === "tool-result");
    const tag =
      result?.type === "tool-result" && result.result.content[0]?.type === "text"
        ? result.result.content[0].text
        : "";
    expect(tag).toMatch(/^request \d+$/);
    expect(events.filter(isProgress)).toEqual([
      { type: "tool-progress", id: "s1", name: "work", progress: 1, total: 2, message: `${tag} step 1` },
      { type: "tool-progress", id: "s1", name: "work", progress: 2, total: 2, message: `${tag} step 2` },
    ]);
    expect(events.map((event) => event.type)).toEqual([
      "tool-call",
      "tool-progress",
      "tool-progress",
      "tool-result",
      "step-end",
      "text-delta",
      "step-end",
      "finish",
    ]);
  }, 20_000);
});

describe("tool-progress from a local tool", () => {
  it("emits nothing after the call's result: a waiting report is dropped, later reports are ignored", async () => {
    let reportsAfterReturn = 0;
    const chatty = tool({
      name: "chatty",
      description: "Reports, returns, and keeps reporting",
      schema: z.object({}),
      execute: async (_input, context) => {
        context?.onProgress?.({ progress: 1, total: 3 });
        // Within the interval of the first: waits, and the result comes first.
        context?.onProgress?.({ progress: 2, total: 3 });
        const timer = setInterval(() => {
          reportsAfterReturn++;
          context?.onProgress?.({ progress: 3, total: 3 });
        }, 20);
        setTimeout(() => clearInterval(timer), 300);
        return "ok";
      },
    });
    const provider = scriptedModel([{ toolCalls: [{ id: "c", name: "chatty" }] }, { text: "done" }]);
    const handle = new Agent({ provider, model: "m", tools: [chatty] }).send("go");
    const events = (await collect(handle)).map((entry) => entry.event);
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(reportsAfterReturn).toBeGreaterThan(5);
    expect(events.filter((event) => event.type.startsWith("tool-"))).toMatchObject([
      { type: "tool-call", id: "c" },
      { type: "tool-progress", id: "c", name: "chatty", progress: 1, total: 3 },
      { type: "tool-result", id: "c" },
    ]);
    expect(events.filter(isProgress)).toHaveLength(1);
  });

  it("drops reports whose progress is not a finite number, with one warning per call, and leaves out a bad total", async () => {
    const sloppy = tool({
      name: "sloppy",
      description: "Reports garbage",
      schema: z.object({}),
      execute: async (_input, context) => {
        const report = context!.onProgress! as (report: unknown) => void;
        report({ progress: Number.NaN });
        report({ progress: Number.POSITIVE_INFINITY, total: 2 });
        report({ progress: "1" });
        report(null);
        report({ progress: 1, total: Number.POSITIVE_INFINITY, message: 42 });
        return "ok";
      },
    });
    const provider = scriptedModel([{ toolCalls: [{ id: "s", name: "sloppy" }] }, { text: "done" }]);
    const handle = new Agent({ provider, model: "m", tools: [sloppy] }).send("go");
    const events = (await collect(handle)).map((entry) => entry.event);
    expect(events.filter(isProgress)).toEqual([
      { type: "tool-progress", id: "s", name: "sloppy", progress: 1 },
    ]);
    const result = await handle.final;
    expect(result.warnings).toEqual([
      {
        code: "tool-progress-invalid",
        message:
          'Tool "sloppy" (call "s") sent a progress report that was dropped: its progress is NaN, not a finite number. Later unusable reports of this call are dropped without a warning.',
      },
    ]);
  });
});

describe("ToolProgressReporter on a fake clock", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("emits the first report at once, then at most one per interval, the latest waiting one", () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    const emitted: { progress: number; at: number }[] = [];
    const reporter = new ToolProgressReporter({
      call: { id: "c", name: "t" },
      emit: (event) => {
        if (event.type === "tool-progress") emitted.push({ progress: event.progress, at: performance.now() });
      },
      warn: () => undefined,
    });
    const start = performance.now();
    // 1,000 reports, one every 1 ms, then a quiet second.
    for (let report = 1; report <= 1_000; report++) {
      reporter.report({ progress: report, total: 1_000 });
      vi.advanceTimersByTime(1);
    }
    vi.advanceTimersByTime(1_000);
    expect(emitted[0]).toEqual({ progress: 1, at: start });
    expect(emitted.at(-1)!.progress).toBe(1_000);
    expect(emitted.length).toBe(11);
    for (let index = 1; index < emitted.length; index++) {
      expect(emitted[index]!.at - emitted[index - 1]!.at).toBeGreaterThanOrEqual(TOOL_PROGRESS_INTERVAL_MS);
    }
    // Each is the newest report at its time.
    expect(emitted.map((entry) => entry.progress)).toEqual([
      1, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1_000,
    ]);
  });

  it("emits nothing once closed: a waiting report is dropped", () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    const emitted: number[] = [];
    const reporter = new ToolProgressReporter({
      call: { id: "c", name: "t" },
      emit: (event) => {
        if (event.type === "tool-progress") emitted.push(event.progress);
      },
      warn: () => undefined,
    });
    reporter.report({ progress: 1 });
    reporter.report({ progress: 2 });
    reporter.close();
    vi.advanceTimersByTime(500);
    reporter.report({ progress: 3 });
    expect(emitted).toEqual([1]);
  });
});

describe("checkToolProgress", () => {
  it("keeps finite numbers and a string message, and says what was wrong otherwise", () => {
    expect(checkToolProgress({ progress: 2, total: 4, message: "half", extra: "x" })).toEqual({
      ok: true,
      progress: { progress: 2, total: 4, message: "half" },
    });
    expect(checkToolProgress({ progress: 0, total: Number.NaN, message: ["no"] })).toEqual({
      ok: true,
      progress: { progress: 0 },
    });
    expect(checkToolProgress({ progress: Number.NEGATIVE_INFINITY })).toEqual({
      ok: false,
      problem: "its progress is -Infinity, not a finite number",
    });
    expect(checkToolProgress({ progress: "3" })).toEqual({
      ok: false,
      problem: 'its progress is the string "3", not a finite number',
    });
    expect(checkToolProgress({})).toEqual({
      ok: false,
      problem: "its progress is undefined, not a finite number",
    });
    expect(checkToolProgress(null)).toEqual({ ok: false, problem: "the report is null, not an object" });
    expect(checkToolProgress(7)).toEqual({ ok: false, problem: "the report is number, not an object" });
    const long = checkToolProgress({ progress: 1, message: "é".repeat(MAX_TOOL_PROGRESS_MESSAGE_CHARS + 1) });
    expect(long).toEqual({
      ok: true,
      progress: { progress: 1, message: `${"é".repeat(MAX_TOOL_PROGRESS_MESSAGE_CHARS - 1)}…` },
    });
    expect(checkToolProgress({ progress: 1, message: "é".repeat(MAX_TOOL_PROGRESS_MESSAGE_CHARS) })).toEqual({
      ok: true,
      progress: { progress: 1, message: "é".repeat(MAX_TOOL_PROGRESS_MESSAGE_CHARS) },
    });
  });
});
