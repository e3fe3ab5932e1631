import type { Tool } from "@junction/types";
import { describe, expect, it } from "vitest";
import {
  Agent,
  type AgentEvent,
  annotationPolicy,
  type RunState,
  type Span,
  type SpanOperation,
  type SpanOutcome,
  type Tracer,
} from "./index.js";
import { scriptedModel } from "./testing/index.js";

/** A tracer that records what core hands it: spans (with links), which span was current when, and events. */
function recordingTracer() {
  const spans: { name: string; links?: unknown[]; carrier: string; input?: unknown }[] = [];
  const current: string[] = [];
  const seen: [string, string][] = [];
  let active: string | undefined;
  const tracer: Tracer = {
    startSpan(name, options) {
      const carrier = `00-${"a".repeat(32)}-${String(spans.length + 1).padStart(16, "0")}-01`;
      spans.push({
        name,
        carrier,
        ...(options.links ? { links: options.links } : {}),
        ...(options.input ? { input: options.input() } : {}),
      });
      return {
        spanName: name,
        setAttribute: () => undefined,
        setStatus: () => undefined,
        end: () => undefined,
        traceCarrier: () => ({ traceparent: carrier }),
      } as Span;
    },
    withSpan(span, fn) {
      const before = active;
      active = (span as Span & { spanName: string }).spanName;
      const result = fn();
      const restore = () => {
        active = before;
      };
      Promise.resolve(result).then(restore, restore);
      return result;
    },
    onEvent(event: AgentEvent, run: Span) {
      seen.push([event.type, (run as Span & { spanName: string }).spanName]);
    },
  };
  return { tracer, spans, current, seen, active: () => active };
}

function writeTool(runs: string[], active: () => string | undefined): Tool {
  return {
    name: "write_file",
    description: "Writes",
    inputSchema: { type: "object", properties: {} },
    execute: async () => {
      runs.push(active() ?? "none");
      return "written";
    },
  };
}

describe("Tracer hooks", () => {
  it("runs the model stream and each tool under their spans, and hands every event to onEvent with the run span", async () => {
    const recording = recordingTracer();
    const runs: string[] = [];
    const provider = scriptedModel([{ toolCalls: [{ id: "w", name: "write_file" }] }, { text: "done" }]);
    const agent = new Agent({
      provider,
      model: "m",
      system: "Be brief.",
      tools: [writeTool(runs, recording.active)],
      tracer: recording.tracer,
    });
    const events: AgentEvent[] = [];
    for await (const event of agent.send("go")) events.push(event);
    expect(runs).toEqual(["junction.tool.call"]);
    // A model call's span can read what the model was sent.
    expect(recording.spans.find((span) => span.name === "junction.model.call")?.input).toEqual({
      system: "Be brief.",
      messages: [{ role: "user", content: "go" }],
    });
    expect(recording.seen.map(([type]) => type)).toEqual(events.map((event) => event.type));
    expect(new Set(recording.seen.map(([, span]) => span))).toEqual(new Set(["junction.agent.send"]));
    const result = events.find((event) => event.type === "tool-result");
    expect(result).toMatchObject({ type: "tool-result", id: "w", outcome: "success" });
  });

  it("keeps the first part's trace context in RunState.trace and links the resumed run span to it", async () => {
    const first = recordingTracer();
    const stopped = await new Agent({
      provider: scriptedModel([{ toolCalls: [{ id: "w", name: "write_file" }] }]),
      model: "m",
      tools: [writeTool([], first.active)],
      approval: annotationPolicy(),
      tracer: first.tracer,
    }).send("go").final;
    expect(stopped.finishReason).toBe("approval-required");
    const state = JSON.parse(JSON.stringify(stopped.state)) as RunState;
    expect(state.trace).toEqual({ traceparent: first.spans[0]!.carrier });

    const second = recordingTracer();
    const agent = new Agent({
      provider: scriptedModel([{ toolCalls: [{ id: "w2", name: "write_file" }] }, { text: "done" }]),
      model: "m",
      tools: [writeTool([], second.active)],
      approval: annotationPolicy(),
      tracer: second.tracer,
    });
    const again = await agent.resume({ state, decisions: { w: "approve" } }).final;
    expect(second.spans[0]).toMatchObject({
      name: "junction.agent.send",
      links: [{ traceparent: first.spans[0]!.carrier }],
    });
    // Stopped again: the state still names the first part, not the second.
    expect(again.state?.trace).toEqual({ traceparent: first.spans[0]!.carrier });
    const denied = await agent.resume({ state: again.state, decisions: { w2: { deny: "no" } } }).final;
    expect(denied.finishReason).toBe("stop");
  });

  it("refuses a state whose trace is malformed", async () => {
    const stopped = await new Agent({
      provider: scriptedModel([{ toolCalls: [{ id: "w", name: "write_file" }] }]),
      model: "m",
      tools: [writeTool([], () => undefined)],
      approval: annotationPolicy(),
    }).send("go").final;
    expect(stopped.state?.trace).toBeUndefined();
    const agent = new Agent({ provider: scriptedModel([]), model: "m" });
    await expect(
      agent.resume({ state: { ...stopped.state, trace: { traceparent: 7 } } }).final,
    ).rejects.toThrow("This run state cannot be resumed: `trace.traceparent` must be a string.");
  });

  it("says what each span is and how it ended, typed, to a span that takes the outcome", async () => {
    const seen: { operation?: SpanOperation; outcome?: SpanOutcome; attributes: string[] }[] = [];
    const tracer: Tracer = {
      startSpan(_name, options) {
        const record: (typeof seen)[number] = {
          ...(options.operation ? { operation: options.operation } : {}),
          attributes: [],
        };
        seen.push(record);
        return {
          setAttribute: (key: string) => record.attributes.push(key),
          setStatus: () => undefined,
          setOutcome: (outcome: SpanOutcome) => {
            record.outcome = outcome;
          },
          end: () => undefined,
        };
      },
    };
    const provider = scriptedModel([{ toolCalls: [{ id: "w", name: "write_file" }] }, { text: "done" }]);
    await new Agent({ provider, model: "m", tools: [writeTool([], () => undefined)], tracer }).send("go")
      .final;
    expect(seen.map((span) => span.operation?.kind)).toEqual([
      "run",
      "model-call",
      "tool-call",
      "model-call",
    ]);
    expect(seen[1]!.operation).toMatchObject({
      kind: "model-call",
      provider: provider.name,
      model: "m",
      step: 1,
    });
    expect(seen[2]!.operation).toEqual({ kind: "tool-call", id: "w", name: "write_file", step: 1 });
    expect(seen[2]!.outcome).toMatchObject({ kind: "tool-call", outcome: "success" });
    expect(seen[3]!.outcome).toMatchObject({ kind: "model-call", finishReason: "stop" });
    expect(seen[0]!.outcome).toMatchObject({ kind: "run", steps: 2, finishReason: "stop" });
    // The outcome replaces the attributes: none is set by key.
    expect(seen.flatMap((span) => span.attributes)).toEqual([]);
  });
});
