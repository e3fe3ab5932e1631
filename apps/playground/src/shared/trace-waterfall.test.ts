import { describe, expect, it } from "vitest";
import { formatDuration, type TraceSpan, waterfallRows } from "./trace-waterfall.js";

function span(
  parts: Partial<TraceSpan> & Pick<TraceSpan, "spanId" | "name" | "startMs" | "endMs">,
): TraceSpan {
  return { traceId: "t", kind: "internal", attributes: {}, ...parts };
}

describe("waterfallRows", () => {
  it("puts parents before children, siblings by start, with bars on the trace's timeline", () => {
    const rows = waterfallRows([
      span({
        spanId: "tool",
        parentSpanId: "run",
        name: "execute_tool fs_read",
        startMs: 1060,
        endMs: 1090,
        error: "tool_error",
        attributes: { "network.transport": "pipe" },
      }),
      span({
        spanId: "chat2",
        parentSpanId: "run",
        name: "chat m",
        startMs: 1090,
        endMs: 1100,
        attributes: {
          "gen_ai.operation.name": "chat",
          "gen_ai.usage.input_tokens": 12,
          "gen_ai.usage.output_tokens": 3,
        },
      }),
      span({
        spanId: "chat1",
        parentSpanId: "run",
        name: "chat m",
        startMs: 1000,
        endMs: 1060,
        attributes: {
          "gen_ai.operation.name": "chat",
          "gen_ai.usage.input_tokens": 10,
          "gen_ai.usage.output_tokens": 5,
        },
      }),
      span({
        spanId: "ask",
        parentSpanId: "run",
        name: "await_approval fs_write",
        startMs: 1061,
        endMs: 1061,
        attributes: { "junction.approval.decision": "denied", "junction.approval.decided_by": "user" },
      }),
      span({
        spanId: "run",
        parentSpanId: "outside",
        name: "invoke_agent playground",
        startMs: 1000,
        endMs: 1100,
        attributes: {
          "gen_ai.operation.name": "invoke_agent",
          "gen_ai.usage.input_tokens": 22,
          "gen_ai.usage.output_tokens": 8,
        },
      }),
    ]);
    expect(rows).toEqual([
      {
        spanId: "run",
        name: "invoke_agent playground",
        category: "agent",
        depth: 0,
        offsetPercent: 0,
        widthPercent: 100,
        durationMs: 100,
        tokens: "in 22 · out 8",
      },
      {
        spanId: "chat1",
        name: "chat m",
        category: "model",
        depth: 1,
        offsetPercent: 0,
        widthPercent: 60,
        durationMs: 60,
        tokens: "in 10 · out 5",
      },
      {
        spanId: "tool",
        name: "execute_tool fs_read",
        category: "tool",
        depth: 1,
        offsetPercent: 60,
        widthPercent: 30,
        durationMs: 30,
        detail: "MCP over pipe",
        error: "tool_error",
      },
      {
        spanId: "ask",
        name: "await_approval fs_write",
        category: "approval",
        depth: 1,
        offsetPercent: 61,
        widthPercent: 0.5,
        durationMs: 0,
        detail: "denied by user",
      },
      {
        spanId: "chat2",
        name: "chat m",
        category: "model",
        depth: 1,
        offsetPercent: 90,
        widthPercent: 10,
        durationMs: 10,
        tokens: "in 12 · out 3",
      },
    ]);
  });

  it("is empty for no spans, and formats durations for people", () => {
    expect(waterfallRows([])).toEqual([]);
    expect([0.25, 12.34, 250, 1240].map(formatDuration)).toEqual(["250 µs", "12.3 ms", "250 ms", "1.24 s"]);
  });
});
