// The spans of a program's calls (code mode), through the real Anthropic SDK against the wire fake
// and a real OpenTelemetry SDK: core's `junction.tool.call` spans (a hand-written Tracer on the
// SDK, as core's hook gives them) and @junction/otel's `execute_tool` spans both say which program
// made a call and its place in it. A sandbox's calls are children of the `run_program` call's
// span; a vendor's program ran at the vendor, so its calls are children of the run's span and are
// grouped by the program's id. A direct call of the same turn names no program.
import { Agent, type AgentConfig, type Span } from "@junction/core";
import { junctionTelemetry } from "@junction/otel";
import { anthropic } from "@junction/provider-anthropic";
import { quickjsSandbox } from "@junction/sandbox-quickjs";
import type { Tool } from "@junction/types";
import {
  anthropicStream,
  anthropicText,
  anthropicToolUse,
  startWireFake,
  type WireFake,
} from "@junction/wire-fake";
import { startAnthropicProgramLoop } from "@junction/wire-fake/anthropic-program-loop";
import { type Attributes, context, type Span as OtelSpan, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";

const model = "claude-sonnet-4-6";
const CODE_EXECUTION = "code_execution_20250825";
const PROGRAM = "srvtoolu_code1";
const caller = { type: CODE_EXECUTION, tool_id: PROGRAM };

beforeAll(() => {
  // @junction/otel nests a sandbox's calls under the program's span through the active context.
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
});
afterAll(() => {
  context.disable();
});

let fake: WireFake;
let exporter: InMemorySpanExporter;
let tracerProvider: BasicTracerProvider;
beforeEach(async () => {
  fake = await startWireFake();
  exporter = new InMemorySpanExporter();
  tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
});
afterEach(async () => {
  await tracerProvider.shutdown();
  await fake.close();
});

/** Each tool's runs, by name: what reached it. */
function tools(runs: string[]): Tool[] {
  const recording = (name: string): Tool => ({
    name,
    description: `The ${name} tool`,
    inputSchema: { type: "object", properties: { n: { type: "number" } } },
    annotations: { readOnlyHint: true, openWorldHint: false },
    execute: async (input: any) => {
      runs.push(`${name}:${input.n}`);
      return `${name} ${input.n}`;
    },
  });
  return [recording("lookup"), recording("note")];
}

/** Core's spans as they come, on the SDK: the attributes and the parent core gives. */
function coreTracer(): NonNullable<AgentConfig["tracer"]> {
  const otel = tracerProvider.getTracer("core-spans");
  return {
    startSpan: (name, { attributes, parent }) =>
      otel.startSpan(
        name,
        { attributes: attributes as Attributes },
        parent ? trace.setSpan(context.active(), parent as unknown as OtelSpan) : undefined,
      ) as unknown as Span,
    withSpan: (span, fn) => context.with(trace.setSpan(context.active(), span as unknown as OtelSpan), fn),
  };
}

/** The tracer of each kind: core's spans as they are, or @junction/otel's. */
const tracers = {
  core: () => coreTracer(),
  otel: () => junctionTelemetry({ tracerProvider }).tracer,
};

const spans = () => exporter.getFinishedSpans();
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const idOf = (span: ReadableSpan) => span.spanContext().spanId;
/** The span of the tool call `id` (the attribute differs: core's and the conventions'). */
function toolSpan(id: string): ReadableSpan {
  const found = spans().filter(
    (span) =>
      span.attributes["junction.tool.call_id"] === id || span.attributes["gen_ai.tool.call.id"] === id,
  );
  expect(found, `one span of call ${id}`).toHaveLength(1);
  return found[0]!;
}
function runSpan(): ReadableSpan {
  const found = spans().filter(
    (span) => span.name === "junction.agent.send" || span.name.startsWith("invoke_agent"),
  );
  expect(found).toHaveLength(1);
  return found[0]!;
}
/** The program attributes of a span, whichever are set. */
function programOf(span: ReadableSpan) {
  const keys = ["parent_call_id", "parent_sequence", "parent_name", "parent_runtime"];
  return Object.fromEntries(
    keys.flatMap((key) => {
      const value = span.attributes[`junction.tool.${key}`];
      return value === undefined ? [] : [[key, value]];
    }),
  );
}

/** A turn in which the model runs a program of two lookups in the sandbox and notes a third directly. */
async function sendSandboxProgram(tracer: NonNullable<AgentConfig["tracer"]>, runs: string[]) {
  fake.enqueue(
    {
      chunks: anthropicStream({
        id: "msg_1",
        model,
        blocks: [
          anthropicToolUse(
            { id: "toolu_program", name: "run_program" },
            JSON.stringify({
              code: "const a = await tools.lookup({ n: 1 });\nconst b = await tools.lookup({ n: 2 });\nreturn a + ', ' + b;",
            }),
          ),
          anthropicToolUse({ id: "toolu_direct", name: "note" }, '{"n":3}'),
        ],
        stopReason: "tool_use",
      }),
    },
    {
      chunks: anthropicStream({
        id: "msg_2",
        model,
        blocks: [anthropicText("Looked up 1 and 2, noted 3.")],
        stopReason: "end_turn",
      }),
    },
  );
  const agent = new Agent({
    provider: anthropic({ apiKey: "test-key", baseURL: fake.url, maxRetries: 0 }),
    model,
    tools: tools(runs),
    codeMode: { sandbox: quickjsSandbox(), minTools: 1 },
    tracer,
  });
  return agent.send("Look 1 and 2 up, note 3.").final;
}

describe.each(Object.entries(tracers))("a program's calls in tracing (%s spans)", (_kind, makeTracer) => {
  it("a vendor's program's two calls name its id, sequence and runtime, under the run's span; a direct call beside them names none", async () => {
    fake.enqueue(
      {
        chunks: anthropicStream({
          id: "msg_1",
          model,
          blocks: [
            {
              start: { type: "server_tool_use", id: PROGRAM, name: "code_execution", input: {} },
              deltas: [{ type: "input_json_delta", partial_json: JSON.stringify({ code: "look two up" }) }],
            },
            anthropicToolUse({ id: "toolu_a", name: "lookup", caller }, '{"n":1}'),
            anthropicToolUse({ id: "toolu_b", name: "lookup", caller }, '{"n":2}'),
            anthropicToolUse({ id: "toolu_direct", name: "note" }, '{"n":3}'),
          ],
          stopReason: "tool_use",
          delta: { container: { id: "container_1", expires_at: "2026-12-02T09:00:00Z" } },
        }),
      },
      {
        chunks: anthropicStream({
          id: "msg_2",
          model,
          blocks: [
            {
              start: {
                type: "code_execution_tool_result",
                tool_use_id: PROGRAM,
                content: {
                  type: "code_execution_result",
                  stdout: "",
                  stderr: "",
                  return_code: 0,
                  content: [],
                },
              },
            },
            anthropicText("Looked up 1 and 2, noted 3."),
          ],
          stopReason: "end_turn",
        }),
      },
    );
    const runs: string[] = [];
    const agent = new Agent({
      provider: anthropic({ apiKey: "test-key", baseURL: fake.url, maxRetries: 0 }),
      model,
      tools: tools(runs),
      codeMode: { sandbox: "provider", tools: { lookup: "code", note: "direct" }, minTools: 1 },
      tracer: makeTracer(),
    });
    const result = await agent.send("Look 1 and 2 up, note 3.").final;
    expect(result.text).toBe("Looked up 1 and 2, noted 3.");
    expect(runs.sort()).toEqual(["lookup:1", "lookup:2", "note:3"]);

    const run = runSpan();
    const [first, second, direct] = ["toolu_a", "toolu_b", "toolu_direct"].map(toolSpan);
    const program = { parent_call_id: PROGRAM, parent_name: CODE_EXECUTION, parent_runtime: "provider" };
    expect(programOf(first!)).toEqual({ ...program, parent_sequence: 1 });
    expect(programOf(second!)).toEqual({ ...program, parent_sequence: 2 });
    expect(programOf(direct!)).toEqual({});
    // No span of this process stands for the vendor's program: its calls are the run's children.
    for (const span of [first!, second!, direct!]) {
      expect(parentOf(span)).toBe(idOf(run));
      expect(span.spanContext().traceId).toBe(run.spanContext().traceId);
    }
  });

  it("a vendor's program that goes on over a second turn numbers its call there on from the first turn's", async () => {
    const loop = await startAnthropicProgramLoop({
      model,
      turns: [
        [
          { id: "toolu_a", name: "lookup", input: { n: 1 } },
          { id: "toolu_b", name: "lookup", input: { n: 2 } },
        ],
        [{ id: "toolu_c", name: "lookup", input: { n: 3 } }],
      ],
      finalText: (results) => results.join("; "),
    });
    try {
      const runs: string[] = [];
      const agent = new Agent({
        provider: anthropic({ apiKey: "test-key", baseURL: loop.url, maxRetries: 0 }),
        model,
        tools: tools(runs),
        codeMode: { sandbox: "provider", tools: { lookup: "code" }, minTools: 1 },
        tracer: makeTracer(),
      });
      const result = await agent.send("Look 1, 2 and 3 up.").final;
      expect(result.text).toBe("lookup 1; lookup 2; lookup 3");
      const run = runSpan();
      const sequences = ["toolu_a", "toolu_b", "toolu_c"].map((id) => {
        const span = toolSpan(id);
        expect(parentOf(span)).toBe(idOf(run));
        return [programOf(span).parent_call_id, programOf(span).parent_sequence];
      });
      expect(sequences).toEqual([
        [PROGRAM, 1],
        [PROGRAM, 2],
        [PROGRAM, 3],
      ]);
    } finally {
      await loop.close();
    }
  });

  it("a sandbox's two calls are children of the run_program call's span and name it; a direct call beside it names none", async () => {
    const runs: string[] = [];
    const result = await sendSandboxProgram(makeTracer(), runs);
    expect(result.text).toBe("Looked up 1 and 2, noted 3.");
    expect(runs.sort()).toEqual(["lookup:1", "lookup:2", "note:3"]);

    const run = runSpan();
    const program = toolSpan("toolu_program");
    const [first, second] = ["toolu_program.1", "toolu_program.2"].map(toolSpan);
    const direct = toolSpan("toolu_direct");
    const parent = { parent_call_id: "toolu_program", parent_name: "run_program", parent_runtime: "sandbox" };
    expect(programOf(first!)).toEqual({ ...parent, parent_sequence: 1 });
    expect(programOf(second!)).toEqual({ ...parent, parent_sequence: 2 });
    expect(programOf(program)).toEqual({});
    expect(programOf(direct)).toEqual({});
    expect(parentOf(program)).toBe(idOf(run));
    expect(parentOf(direct)).toBe(idOf(run));
    expect(parentOf(first!)).toBe(idOf(program));
    expect(parentOf(second!)).toBe(idOf(program));
  });
});

describe("a program's calls for a tracer that reads only the active context", () => {
  it("a sandbox's calls are children of the run_program call's span, with no parent passed", async () => {
    const otel = tracerProvider.getTracer("active-context-spans");
    const tracer: NonNullable<AgentConfig["tracer"]> = {
      // The parent core passes is left aside: a span's parent is whatever span is current.
      startSpan: (name, { attributes }) =>
        otel.startSpan(name, { attributes: attributes as Attributes }) as unknown as Span,
      withSpan: (span, fn) => context.with(trace.setSpan(context.active(), span as unknown as OtelSpan), fn),
    };
    const runs: string[] = [];
    const result = await sendSandboxProgram(tracer, runs);
    expect(result.text).toBe("Looked up 1 and 2, noted 3.");
    expect(runs.sort()).toEqual(["lookup:1", "lookup:2", "note:3"]);
    const program = toolSpan("toolu_program");
    for (const id of ["toolu_program.1", "toolu_program.2"])
      expect(parentOf(toolSpan(id))).toBe(idOf(program));
  });
});
