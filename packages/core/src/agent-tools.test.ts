import { JunctionError, type Tool, type ToolResult, type ToolSource } from "@junction/types";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent, type AgentEvent, type Span, type Tracer, tool } from "./index.js";
import { scriptedModel } from "./testing/index.js";

async function collect(handle: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of handle) events.push(event);
  return events;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function jsonTool(
  name: string,
  execute: Tool["execute"],
  inputSchema: Tool["inputSchema"] = { type: "object" },
): Tool {
  return { name, description: name, inputSchema, execute };
}

/** A small in-test ToolSource that can change its list, like an MCP server sending list_changed. */
class TestSource implements ToolSource {
  listCalls = 0;
  #listeners = new Set<() => void>();
  constructor(
    readonly name: string,
    public tools: Tool[],
  ) {}
  async listTools(options?: { prefix?: string }): Promise<Tool[]> {
    this.listCalls++;
    return this.tools.map((t) => (options?.prefix ? { ...t, name: `${options.prefix}_${t.name}` } : t));
  }
  onToolsChanged(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
  change(tools: Tool[]): void {
    this.tools = tools;
    for (const listener of this.#listeners) listener();
  }
}

function toolResultsOf(request: { messages: unknown[] }): unknown {
  return request.messages.at(-1);
}

describe("Agent: tool failures go back to the model", () => {
  it("turns a thrown error, an isError result, an unknown tool and invalid arguments into error results", async () => {
    const boom = jsonTool("boom", async () => {
      throw new Error("disk full");
    });
    const failing = jsonTool(
      "failing",
      async (): Promise<ToolResult> => ({ content: [{ type: "text", text: "no such file" }], isError: true }),
    );
    const typed = tool({
      name: "typed",
      description: "needs a count",
      schema: z.object({ count: z.number().int() }),
      execute: async ({ count }) => `count=${count}`,
    });
    const mcpLike = jsonTool("mcp_like", async (input) => JSON.stringify(input), {
      type: "object",
      properties: { path: { type: "string" } },
      required: ["path"],
    });
    const provider = scriptedModel([
      {
        toolCalls: [
          { id: "1", name: "boom" },
          { id: "2", name: "failing" },
          { id: "3", name: "nope" },
          { id: "4", name: "typed", input: { count: "three" } },
          { id: "5", name: "mcp_like", input: { path: 42 } },
        ],
      },
      { text: "I see the errors." },
    ]);
    const agent = new Agent({ provider, model: "m", tools: [boom, failing, typed, mcpLike] });
    const result = await agent.send("go").final;
    expect(result.text).toBe("I see the errors.");
    const error = (text: string) => ({ content: [{ type: "text", text }], isError: true });
    expect(toolResultsOf(provider.requests[1]!)).toEqual({
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "1",
          toolName: "boom",
          output: error('Tool "boom" failed: disk full'),
        },
        { type: "tool-result", toolCallId: "2", toolName: "failing", output: error("no such file") },
        {
          type: "tool-result",
          toolCallId: "3",
          toolName: "nope",
          output: error('There is no tool named "nope". Available tools: boom, failing, typed, mcp_like.'),
        },
        {
          type: "tool-result",
          toolCallId: "4",
          toolName: "typed",
          output: error(
            'Invalid arguments for tool "typed":\n✖ Invalid input: expected number, received string\n  → at count\nCall it again with arguments that match its input schema.',
          ),
        },
        {
          type: "tool-result",
          toolCallId: "5",
          toolName: "mcp_like",
          output: error(
            'Invalid arguments for tool "mcp_like":\n✖ Invalid input: expected string, received number\n  → at path\nCall it again with arguments that match its input schema.',
          ),
        },
      ],
    });
  });

  it("passes zod-parsed input (defaults applied) to tool(), and MCP-style tools the raw arguments", async () => {
    const seen: unknown[] = [];
    const withDefault = tool({
      name: "greet",
      description: "greets",
      schema: z.object({ name: z.string(), greeting: z.string().default("hello") }),
      execute: async (input) => {
        seen.push(input);
        return `${input.greeting} ${input.name}`;
      },
    });
    const raw = jsonTool(
      "raw",
      async (input) => {
        seen.push(input);
        return "ok";
      },
      { type: "object", properties: { n: { type: "number", default: 3 } } },
    );
    const provider = scriptedModel([
      {
        toolCalls: [
          { name: "greet", input: { name: "Ada" } },
          { name: "raw", input: {} },
        ],
      },
      { text: "done" },
    ]);
    await new Agent({ provider, model: "m", tools: [withDefault, raw], toolConcurrency: 1 }).send("x").final;
    expect(seen).toEqual([{ name: "Ada", greeting: "hello" }, {}]);
  });

  it("falls back to permissive validation with a warning when a schema cannot be converted", async () => {
    const odd = jsonTool("odd", async (input) => `got ${JSON.stringify(input)}`, {
      type: "object",
      properties: { x: { $ref: "#/$defs/missing" } },
    });
    const provider = scriptedModel([
      { toolCalls: [{ name: "odd", input: { x: 1 } }] },
      { toolCalls: [{ name: "odd", input: { x: 2 } }] },
      { text: "ok" },
    ]);
    const handle = new Agent({ provider, model: "m", tools: [odd] }).send("x");
    const events = await collect(handle);
    const result = await handle.final;
    // Warned once, not on every call.
    expect(result.warnings).toEqual([
      {
        code: "tool-schema-unsupported",
        message:
          'The input schema of tool "odd" could not be converted for local validation (Reference not found: #/$defs/missing); its arguments are passed unchecked and the server validates them.',
      },
    ]);
    expect(events.filter((e) => e.type === "warning")).toHaveLength(1);
    expect(result.steps.map((s) => s.toolResults[0]?.output)).toEqual([
      'got {"x":1}',
      'got {"x":2}',
      undefined,
    ]);
  });

  it("truncates output over the limit with a note and a warning, never silently", async () => {
    const big = jsonTool("big", async () => "x".repeat(50));
    const bigParts = jsonTool("big_parts", async () => [
      { type: "text" as const, text: "a".repeat(30) },
      { type: "image" as const, data: "AAAA", mimeType: "image/png" },
      { type: "text" as const, text: "b".repeat(30) },
    ]);
    const provider = scriptedModel([
      {
        toolCalls: [
          { id: "s", name: "big" },
          { id: "p", name: "big_parts" },
        ],
      },
      { text: "ok" },
    ]);
    const result = await new Agent({
      provider,
      model: "m",
      tools: [big, bigParts],
      maxToolOutputChars: 40,
    }).send("x").final;
    const [stringResult, partsResult] = result.steps[0]!.toolResults;
    expect(stringResult!.output).toBe(
      `${"x".repeat(40)}\n\n[Output truncated by Junction: 50 characters of text, only the first 40 are shown.]`,
    );
    expect(partsResult!.output).toEqual({
      content: [
        { type: "text", text: "a".repeat(30) },
        { type: "image", data: "AAAA", mimeType: "image/png" },
        { type: "text", text: "b".repeat(10) },
        {
          type: "text",
          text: "[Output truncated by Junction: 60 characters of text, only the first 40 are shown.]",
        },
      ],
      isError: false,
    });
    expect(result.warnings.map((w) => w.message)).toEqual([
      'Tool "big" returned 50 characters of text; it was truncated to 40.',
      'Tool "big_parts" returned 60 characters of text; it was truncated to 40.',
    ]);
  });

  it("keeps an invalid tool return as JSON text with a warning", async () => {
    const weird = jsonTool("weird", async () => 42 as never);
    const provider = scriptedModel([{ toolCalls: [{ name: "weird" }] }, { text: "ok" }]);
    const result = await new Agent({ provider, model: "m", tools: [weird] }).send("x").final;
    expect(result.steps[0]!.toolResults[0]!.output).toBe("42");
    expect(result.warnings[0]!.code).toBe("tool-output-invalid");
  });
});

describe("Agent: parallel and eager execution", () => {
  it("runs one step's calls in parallel within toolConcurrency and returns results in the model's order", async () => {
    let active = 0;
    let peak = 0;
    const finished: string[] = [];
    const slow = tool({
      name: "slow",
      description: "waits",
      schema: z.object({ ms: z.number(), label: z.string() }),
      execute: async ({ ms, label }) => {
        active++;
        peak = Math.max(peak, active);
        await sleep(ms);
        active--;
        finished.push(label);
        return label;
      },
    });
    const calls = [
      { name: "slow", input: { ms: 80, label: "a" } },
      { name: "slow", input: { ms: 10, label: "b" } },
      { name: "slow", input: { ms: 40, label: "c" } },
      { name: "slow", input: { ms: 10, label: "d" } },
      { name: "slow", input: { ms: 10, label: "e" } },
    ];
    const provider = scriptedModel([{ toolCalls: calls }, { text: "done" }]);
    const handle = new Agent({ provider, model: "m", tools: [slow], toolConcurrency: 2 }).send("x");
    const events = await collect(handle);
    const result = await handle.final;
    expect(peak).toBe(2);
    expect(finished).not.toEqual(["a", "b", "c", "d", "e"]);
    expect(result.steps[0]!.toolResults.map((r) => r.output)).toEqual(["a", "b", "c", "d", "e"]);
    // tool-result events come as calls finish; the history keeps the model's order.
    expect(events.filter((e) => e.type === "tool-result").map((e) => (e as { id: string }).id)).toEqual(
      finished.map((label) => `call_1_${"abcde".indexOf(label) + 1}`),
    );
  });

  it("starts each tool as soon as its call is complete, while the model still streams (timestamps)", async () => {
    const origin = performance.now();
    const now = () => performance.now() - origin;
    const starts: number[] = [];
    const work = tool({
      name: "work",
      description: "takes 200 ms",
      schema: z.object({ n: z.number() }),
      execute: async ({ n }) => {
        starts.push(now());
        await sleep(200);
        return `done ${n}`;
      },
    });
    // Four calls streamed over one second: at 0, 250, 500 and 750 ms; the turn ends at 1000 ms.
    const provider = scriptedModel([
      {
        events: [
          ...[0, 1, 2, 3].flatMap((n) => [
            ...(n > 0 ? [{ type: "pause" as const, ms: 250 }] : []),
            { type: "tool-call" as const, id: `w${n}`, name: "work", input: { n } },
          ]),
          { type: "pause", ms: 250 },
        ],
      },
      { text: "all done" },
    ]);
    const concurrency = 2;
    let streamEnd = 0;
    let stepEnd = 0;
    // The same provider, noting when the first turn's stream delivers its finish.
    const timed = {
      ...provider,
      stream: (request: Parameters<typeof provider.stream>[0]) =>
        (async function* () {
          for await (const event of provider.stream(request)) {
            if (event.type === "finish" && streamEnd === 0) streamEnd = now();
            yield event;
          }
        })(),
    };
    const handle = new Agent({
      provider: timed,
      model: "m",
      tools: [work],
      toolConcurrency: concurrency,
    }).send("go");
    for await (const event of handle) {
      if (event.type === "step-end" && event.step === 1) stepEnd = now();
    }
    await handle.final;
    expect(streamEnd).toBeGreaterThanOrEqual(990);
    expect(starts).toHaveLength(4);
    // Every tool started before the model finished streaming the turn.
    for (const start of starts) expect(start).toBeLessThan(streamEnd - 100);
    // Without eager execution the step could not end before streamEnd + 200 ms × 4 / concurrency.
    const lazyBound = streamEnd + (200 * 4) / concurrency;
    expect(stepEnd).toBeLessThan(lazyBound - 250);
  });
});

describe("Agent: MCP sources", () => {
  it("lists sources lazily as part of the first send, caches them, and applies prefixes", async () => {
    const source = new TestSource("files", [jsonTool("read", async () => "contents")]);
    const provider = scriptedModel([
      { toolCalls: [{ name: "fs_read" }] },
      { text: "read it" },
      { text: "again" },
    ]);
    const agent = new Agent({ provider, model: "m", mcps: [{ mcp: source, prefix: "fs" }] });
    expect(source.listCalls).toBe(0);
    const handle = agent.send("read");
    // The handle came back before the source was listed.
    expect(source.listCalls).toBe(0);
    const result = await handle.final;
    expect(result.steps[0]!.toolResults[0]!.output).toBe("contents");
    expect(provider.requests[0]!.tools!.map((t) => t.name)).toEqual(["fs_read"]);
    await agent.send("again").final;
    expect(source.listCalls).toBe(1);
  });

  it("picks up a changed tool list on the next step", async () => {
    const source = new TestSource("server", [jsonTool("first", async () => "1")]);
    const provider = scriptedModel([
      { toolCalls: [{ name: "first" }] },
      { toolCalls: [{ name: "second" }] },
      { text: "done" },
    ]);
    const firstTool = source.tools[0]!;
    firstTool.execute = async () => {
      source.change([jsonTool("first", async () => "1"), jsonTool("second", async () => "2")]);
      return "1";
    };
    const result = await new Agent({ provider, model: "m", mcps: [source] }).send("x").final;
    expect(provider.requests.map((r) => r.tools!.map((t) => t.name))).toEqual([
      ["first"],
      ["first", "second"],
      ["first", "second"],
    ]);
    expect(result.steps[1]!.toolResults[0]!.output).toBe("2");
    expect(source.listCalls).toBe(2);
  });

  it("fails on two tools with the same name, naming both sources and suggesting a prefix", async () => {
    const a = new TestSource("alpha", [jsonTool("search", async () => "a")]);
    const b = new TestSource("beta", [jsonTool("search", async () => "b")]);
    const provider = scriptedModel([{ text: "never" }]);
    const handle = new Agent({ provider, model: "m", mcps: [a, b] }).send("x");
    const events = await collect(handle);
    const error = await handle.final.catch((e) => e);
    expect(JunctionError.isInstance(error) && error.code).toBe("tool-name-collision");
    expect(error.message).toBe(
      'Two tools are named "search": one from MCP source "alpha" and one from MCP source "beta". Give an MCP source a prefix, for example mcps: [{ mcp, prefix: "github" }] makes its tools "github_<name>", or rename the local tool.',
    );
    expect(events).toEqual([{ type: "error", error }]);
    expect(provider.requests).toHaveLength(0);

    const local = new Agent({
      provider: scriptedModel([]),
      model: "m",
      tools: [jsonTool("search", async () => "l")],
      mcps: [a],
    });
    const localError = await local.send("x").final.catch((e) => e);
    expect(localError.message).toMatch(
      /^Two tools are named "search": one from the local tools and one from MCP source "alpha"\./,
    );
  });

  it("reports a source that cannot list its tools, naming it", async () => {
    const broken: ToolSource = {
      name: "broken",
      listTools: async () => {
        throw new Error("connection refused");
      },
    };
    const error = await new Agent({ provider: scriptedModel([]), model: "m", mcps: [broken] })
      .send("x")
      .final.catch((e) => e);
    expect(error.message).toBe('Could not list the tools of MCP source "broken": connection refused');
  });

  it("leaves out a source that cannot list its tools when others can, with a warning, and lists it again next step", async () => {
    let brokenLists = 0;
    const broken: ToolSource = {
      name: "broken",
      listTools: async () => {
        brokenLists++;
        throw new Error("connection refused");
      },
    };
    const working: ToolSource = {
      name: "working",
      listTools: async () => [
        {
          name: "ping",
          description: "Answers pong.",
          inputSchema: { type: "object" },
          execute: async () => "pong",
        },
      ],
    };
    const provider = scriptedModel([{ toolCalls: [{ id: "p", name: "ping" }] }, { text: "done" }]);
    const result = await new Agent({ provider, model: "m", mcps: [broken, working] }).send("x").final;
    expect(result.text).toBe("done");
    expect(provider.requests.map((request) => (request.tools ?? []).map((tool) => tool.name))).toEqual([
      ["ping"],
      ["ping"],
    ]);
    expect(brokenLists).toBe(2);
    const unavailable = result.warnings.filter((warning) => warning.code === "mcp-source-unavailable");
    expect(unavailable.map((warning) => warning.message)).toEqual([
      'Could not list the tools of MCP source "broken": connection refused; its tools are left out of this step and listed again on the next one.',
      'Could not list the tools of MCP source "broken": connection refused; its tools are left out of this step and listed again on the next one.',
    ]);
  });
});

describe("Agent: abort", () => {
  it("aborts mid-stream: the model stream stops, final rejects, nothing more is emitted", async () => {
    const controller = new AbortController();
    const provider = scriptedModel([
      {
        events: [
          { type: "text-delta", text: "Hel" },
          { type: "pause", ms: 5000 },
          { type: "text-delta", text: "lo" },
        ],
      },
    ]);
    const handle = new Agent({ provider, model: "m" }).send("x", { signal: controller.signal });
    const events: AgentEvent[] = [];
    for await (const event of handle) {
      events.push(event);
      if (event.type === "text-delta") controller.abort();
    }
    const error = await handle.final.catch((e) => e);
    expect(JunctionError.isInstance(error) && error.code).toBe("aborted");
    expect(events.map((e) => e.type)).toEqual(["text-delta", "error"]);
  });

  it("aborts mid-tool: every in-flight tool gets the signal and has stopped before final settles", async () => {
    const controller = new AbortController();
    const stopped: string[] = [];
    const waitForAbort = (label: string) =>
      jsonTool(label, (_input, context) => {
        return new Promise((_resolve, reject) => {
          context!.signal!.addEventListener("abort", () => {
            setTimeout(() => {
              stopped.push(label);
              reject(new Error("cancelled"));
            }, 20);
          });
          if (label === "b") setTimeout(() => controller.abort(), 10);
        });
      });
    const provider = scriptedModel([
      {
        toolCalls: [
          { id: "a", name: "a" },
          { id: "b", name: "b" },
        ],
      },
      { text: "never" },
    ]);
    const agent = new Agent({ provider, model: "m", tools: [waitForAbort("a"), waitForAbort("b")] });
    const handle = agent.send("x", { signal: controller.signal });
    const error = await handle.final.catch((e) => e);
    expect(error.code).toBe("aborted");
    expect(stopped.sort()).toEqual(["a", "b"]);
    expect(provider.requests).toHaveLength(1);
    // The history stays valid: each call has a result that says it was cancelled.
    expect(agent.messages.at(-1)).toEqual({
      role: "tool",
      content: ["a", "b"].map((id) => ({
        type: "tool-result",
        toolCallId: id,
        toolName: id,
        output: {
          content: [{ type: "text", text: `The call to "${id}" was cancelled: the run was aborted.` }],
          isError: true,
        },
      })),
    });
  });

  it("rejects at once when the signal is already aborted", async () => {
    const provider = scriptedModel([{ text: "never" }]);
    const handle = new Agent({ provider, model: "m" }).send("x", { signal: AbortSignal.abort() });
    await expect(handle.final).rejects.toMatchObject({ code: "aborted" });
    expect(provider.requests).toHaveLength(0);
  });
});

describe("Agent: tracing", () => {
  it("opens spans for the run, each model call and each tool call, with outcome and server", async () => {
    const spans: {
      name: string;
      attributes: Record<string, unknown>;
      events: [string, Record<string, unknown>][];
      parent?: string;
      status?: number;
      ended: boolean;
    }[] = [];
    const tracer: Tracer = {
      startSpan(name, options) {
        const record = {
          name,
          attributes: { ...options.attributes },
          events: [],
          ended: false,
          ...(options.parent ? { parent: (options.parent as Span & { spanName: string }).spanName } : {}),
        } as (typeof spans)[number];
        spans.push(record);
        return {
          spanName: name,
          setAttribute: (key: string, value: unknown) => {
            record.attributes[key] = value;
          },
          addEvent: (eventName: string, attributes: Record<string, unknown>) => {
            record.events.push([eventName, attributes]);
          },
          setStatus: (status: { code: number }) => {
            record.status = status.code;
          },
          end: () => {
            record.ended = true;
          },
        } as Span;
      },
    };
    const source = new TestSource("everything", [
      jsonTool("echo", async (_input, context) => {
        context?.onProgress?.({ progress: 1, total: 2, message: "half way" });
        return "hi";
      }),
      jsonTool("fail", async () => ({ content: [{ type: "text", text: "bad" }], isError: true })),
    ]);
    const provider = scriptedModel([
      {
        toolCalls: [
          { name: "echo", id: "e" },
          { name: "fail", id: "f" },
        ],
      },
      { text: "ok" },
    ]);
    await new Agent({ provider, model: "m", mcps: [source], tracer }).send("x").final;
    expect(spans.map((s) => [s.name, s.parent, s.status, s.ended])).toEqual([
      ["junction.agent.send", undefined, 1, true],
      ["junction.model.call", "junction.agent.send", 1, true],
      ["junction.tool.call", "junction.agent.send", 1, true],
      ["junction.tool.call", "junction.agent.send", 2, true],
      ["junction.model.call", "junction.agent.send", 1, true],
    ]);
    expect(spans[2]!.attributes).toMatchObject({
      "junction.tool.name": "echo",
      "junction.tool.server": 'MCP source "everything"',
      "junction.tool.outcome": "success",
    });
    expect(spans[3]!.attributes).toMatchObject({
      "junction.tool.name": "fail",
      "junction.tool.outcome": "error",
    });
    expect(spans[2]!.events).toEqual([
      [
        "junction.tool.progress",
        { "junction.progress": 1, "junction.progress.total": 2, "junction.progress.message": "half way" },
      ],
    ]);
    expect(typeof spans[2]!.attributes["junction.duration_ms"]).toBe("number");
    expect(spans[1]!.attributes).toMatchObject({
      "junction.model": "m",
      "junction.provider": "scripted",
      "junction.step": 1,
      "junction.usage.input_tokens": 10,
    });
  });
});
