import { ProviderError, type Sandbox, type Tool, type ToolAnnotations } from "@junction/types";
import { describe, expect, it } from "vitest";
import { hostSandbox } from "../../test/host-sandbox.js";
import {
  Agent,
  type AgentEvent,
  annotationPolicy,
  memoryResumeClaims,
  RUN_PROGRAM,
  type RunState,
  runStateOf,
} from "../index.js";
import { type ScriptedResponse, scriptedModel } from "../testing/index.js";
import type { Span, Tracer } from "../tracing.js";

/** A tool that records each run's input; its result is `<name>:<n>` (or what `result` gives). */
function recordingTool(
  name: string,
  runs: { name: string; input: unknown }[],
  options: { annotations?: ToolAnnotations; result?: (input: any) => unknown; delayMs?: () => number } = {},
): Tool {
  return {
    name,
    description: `The ${name} tool`,
    inputSchema: { type: "object", properties: { n: { type: "number" }, text: { type: "string" } } },
    ...(options.annotations ? { annotations: options.annotations } : {}),
    execute: async (input: any) => {
      runs.push({ name, input });
      const delay = options.delayMs?.() ?? 0;
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      return (options.result?.(input) ?? `${name}:${input?.n ?? ""}`) as string;
    },
  };
}

const READ: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
const OPEN_READ: ToolAnnotations = { readOnlyHint: true, openWorldHint: true };

function toolsFor(runs: { name: string; input: unknown }[], delayMs?: () => number): Tool[] {
  return [
    recordingTool("read_item", runs, { annotations: READ, ...(delayMs ? { delayMs } : {}) }),
    recordingTool("list_items", runs, { annotations: READ, result: () => JSON.stringify([1, 2, 3]) }),
    recordingTool("label_item", runs, { annotations: { readOnlyHint: false, openWorldHint: false } }),
    recordingTool("post_message", runs, { annotations: { openWorldHint: true } }),
    recordingTool("delete_all", runs, { annotations: { destructiveHint: true } }),
  ];
}

function programTurn(code: string, id = "prog") {
  return { toolCalls: [{ id, name: RUN_PROGRAM, input: { code } }] };
}

function agentWith(parts: {
  runs: { name: string; input: unknown }[];
  turns: Parameters<typeof scriptedModel>[0];
  sandbox?: Sandbox;
  approval?: boolean | "approve-all";
  tools?: Tool[];
  minTools?: number;
  onEvent?: (event: AgentEvent) => void;
}) {
  const provider = scriptedModel(parts.turns);
  const agent = new Agent({
    provider,
    model: "m",
    tools: parts.tools ?? toolsFor(parts.runs),
    ...(parts.approval === false
      ? {}
      : { approval: parts.approval === "approve-all" ? () => "approve" as const : annotationPolicy() }),
    approvalTimeoutMs: 0,
    codeMode: {
      sandbox: parts.sandbox ?? hostSandbox(),
      ...(parts.minTools !== undefined ? { minTools: parts.minTools } : {}),
    },
    ...(parts.onEvent ? { onEvent: parts.onEvent } : {}),
  });
  return { agent, provider };
}

function textOf(output: unknown): string {
  if (typeof output === "string") return output;
  return (output as { content: { type: string; text?: string }[] }).content
    .map((part) => part.text ?? "")
    .join("");
}

describe("code mode", () => {
  it("offers run_program with declarations of the code-callable tools, keeps destructive tools direct, and only the program's answer reaches the model", async () => {
    const runs: { name: string; input: unknown }[] = [];
    const events: AgentEvent[] = [];
    const { agent, provider } = agentWith({
      runs,
      approval: false,
      onEvent: (event) => events.push(event),
      turns: [
        programTurn(
          "const ids = JSON.parse(await tools.list_items({}));\n" +
            "const texts = await Promise.all(ids.map((n) => tools.read_item({ n })));\n" +
            "console.log('read', texts.length);\n" +
            "return texts.join(',');",
        ),
        { text: "done" },
      ],
    });
    const result = await agent.send("read everything").final;
    expect(result.text).toBe("done");
    const first = provider.requests[0]!;
    const names = first.tools!.map((tool) => tool.name);
    expect(names).toContain(RUN_PROGRAM);
    expect(names).toContain("delete_all");
    const program = first.tools!.find((tool) => tool.name === RUN_PROGRAM)!;
    // Offered directly too, so only named: the model has their schemas already.
    expect(program.description).toContain(
      "Your tools are functions too (tools.<name>), same input, except delete_all.",
    );
    expect(program.description).not.toContain("function read_item");
    expect(program.description).not.toContain("function delete_all");
    expect(runs.map((run) => run.name)).toEqual(["list_items", "read_item", "read_item", "read_item"]);
    // The model gets the program's answer, its console and its calls counted per tool; not the calls' results.
    const toolMessage = provider.requests[1]!.messages.at(-1)!;
    expect(toolMessage.role).toBe("tool");
    const text = textOf((toolMessage.content[0] as { output: unknown }).output);
    expect(text).toContain('Returned: "read_item:1,read_item:2,read_item:3"');
    expect(text).toContain("Console:\nread 3");
    expect(text).toContain("Calls (4): 1 list_items, 3 read_item, all succeeded");
    const structured = (toolMessage.content[0] as { output: { structuredContent: unknown } }).output
      .structuredContent;
    expect(structured).toEqual({
      outcome: "returned",
      returned: "read_item:1,read_item:2,read_item:3",
      console: "read 3",
      calls: [
        { sequence: 1, name: "list_items", outcome: "success" },
        { sequence: 2, name: "read_item", outcome: "success" },
        { sequence: 3, name: "read_item", outcome: "success" },
        { sequence: 4, name: "read_item", outcome: "success" },
      ],
    });
    const nested = events.filter((event) => event.type === "tool-call" && event.parent);
    expect(nested.map((event) => (event as { id: string }).id)).toEqual([
      "prog.1",
      "prog.2",
      "prog.3",
      "prog.4",
    ]);
    const results = events.filter((event) => event.type === "tool-result" && event.parent);
    expect(results).toHaveLength(4);
  });

  it("offers no program tool when fewer tools than minTools could be called from one", async () => {
    const runs: { name: string; input: unknown }[] = [];
    const { agent, provider } = agentWith({
      runs,
      tools: toolsFor(runs).slice(0, 2),
      turns: [{ text: "hi" }],
    });
    await agent.send("hello").final;
    expect(provider.requests[0]!.tools!.map((tool) => tool.name)).toEqual(["read_item", "list_items"]);
  });

  it("a gated call inside a program stops the run with the call pending and its program beside it; resumed in a new Agent, earlier calls are not sent again and the approved one runs once", async () => {
    const runs: { name: string; input: unknown }[] = [];
    const code =
      "const a = await tools.read_item({ n: 1 });\n" +
      "const b = await tools.read_item({ n: 2 });\n" +
      "const sent = await tools.post_message({ text: a + b });\n" +
      "const c = await tools.read_item({ n: 3 });\n" +
      "return [sent, c, Date.now()];";
    const { agent } = agentWith({ runs, turns: [programTurn(code)] });
    const stopped = await agent.send("go").final;
    expect(stopped.finishReason).toBe("approval-required");
    expect(stopped.pending).toHaveLength(1);
    const pending = stopped.pending![0]!;
    expect(pending.id).toBe("prog.3");
    expect(pending.name).toBe("post_message");
    expect(pending.input).toEqual({ text: "read_item:1read_item:2" });
    expect(pending.parent).toEqual({ id: "prog", name: RUN_PROGRAM, sequence: 3, program: code });
    expect(runs.map((run) => run.name)).toEqual(["read_item", "read_item"]);
    const state = JSON.parse(JSON.stringify(stopped.state)) as RunState;

    // Another process, thirty days later: a new Agent from the stored state.
    const later = agentWith({ runs, turns: [{ text: "posted" }] });
    const realNow = Date.now;
    Date.now = () => realNow() + 30 * 24 * 3600 * 1000;
    let resumed: Awaited<ReturnType<typeof agent.send>["final"]>;
    try {
      resumed = await later.agent.resume({ state, decisions: { "prog.3": "approve" } }).final;
    } finally {
      Date.now = realNow;
    }
    expect(resumed.finishReason).toBe("stop");
    expect(runs.map((run) => run.name)).toEqual(["read_item", "read_item", "post_message", "read_item"]);
    const toolMessage = later.provider.requests[0]!.messages.at(-1)!;
    const text = textOf((toolMessage.content[0] as { output: unknown }).output);
    // The program's clock is its first run's, not the resume's.
    const clock = JSON.parse(text.split("Returned: ")[1]!.split("\n")[0]!)[2] as number;
    expect(Math.abs(clock - realNow())).toBeLessThan(60_000);
  });

  it("a resumed program whose run then fails (the model's next request): the error's state goes on from the finished program, no nested call sent again", async () => {
    const runs: { name: string; input: unknown }[] = [];
    const code =
      "const a = await tools.read_item({ n: 1 });\n" +
      "const sent = await tools.post_message({ text: a });\n" +
      "const c = await tools.read_item({ n: 2 });\n" +
      "return [sent, c];";
    const stopped = await agentWith({ runs, turns: [programTurn(code)] }).agent.send("go").final;
    expect(stopped.pending?.map((call) => call.id)).toEqual(["prog.2"]);
    const outage = new ProviderError({ provider: "scripted", message: "down", status: 503 });
    const failed = await agentWith({ runs, turns: [{ error: outage }] })
      .agent.resume({ state: stopped.state!, decisions: { "prog.2": "approve" } })
      .final.then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(failed).toBe(outage);
    expect(runs.map((run) => run.name)).toEqual(["read_item", "post_message", "read_item"]);
    const next = JSON.parse(JSON.stringify(runStateOf(failed))) as RunState;
    expect(next.pending).toEqual([]);

    const later = agentWith({ runs, turns: [{ text: "posted" }] });
    const result = await later.agent.resume({ state: next, decisions: {} }).final;
    expect(result.text).toBe("posted");
    expect(runs.map((run) => run.name)).toEqual(["read_item", "post_message", "read_item"]);
    const toolMessage = later.provider.requests[0]!.messages.at(-1)!;
    expect(textOf((toolMessage.content[0] as { output: unknown }).output)).toContain(
      '["post_message:","read_item:2"]',
    );
  });

  it("a denied call throws a ToolError the program can catch, and the run goes on", async () => {
    const runs: { name: string; input: unknown }[] = [];
    const code =
      "try { await tools.post_message({ text: 'hi' }); return 'sent'; }\n" +
      "catch (error) { return error.name + ':' + error.code; }";
    const { agent } = agentWith({ runs, turns: [programTurn(code)] });
    const stopped = await agent.send("go").final;
    const later = agentWith({ runs, turns: [{ text: "ok" }] });
    await later.agent.resume({ state: stopped.state!, decisions: { "prog.1": { deny: "not now" } } }).final;
    const text = textOf(
      (later.provider.requests[0]!.messages.at(-1)!.content[0] as { output: unknown }).output,
    );
    expect(text).toContain('Returned: "ToolError:denied"');
    expect(runs).toEqual([]);
  });

  it("the exfiltration guard counts a private read inside a program: an open-world call after it asks, as a direct pair does", async () => {
    const runs: { name: string; input: unknown }[] = [];
    const tools = [
      recordingTool("read_item", runs, { annotations: READ }),
      recordingTool("web_search", runs, { annotations: OPEN_READ }),
      recordingTool("list_items", runs, { annotations: READ }),
      recordingTool("label_item", runs, { annotations: READ }),
    ];
    const code =
      "const secret = await tools.read_item({ n: 1 });\nreturn await tools.web_search({ text: secret });";
    const { agent } = agentWith({ runs, tools, approval: "approve-all", turns: [programTurn(code)] });
    const stopped = await agent.send("go").final;
    expect(stopped.finishReason).toBe("approval-required");
    expect(stopped.pending![0]!.name).toBe("web_search");
    expect(stopped.pending![0]!.reason).toContain("read_item");
    expect(runs.map((run) => run.name)).toEqual(["read_item"]);
    // Without the read first, the same open-world read runs unasked.
    const direct = agentWith({
      runs: [],
      tools,
      approval: "approve-all",
      turns: [programTurn("return await tools.web_search({ text: 'x' });"), { text: "ok" }],
    });
    expect((await direct.agent.send("go").final).finishReason).toBe("stop");
  });

  it("a state whose program was changed after it stopped diverges at the changed call: the journal's result is not given to another call, and nothing runs in its place", async () => {
    const runs: { name: string; input: unknown }[] = [];
    const code = "const a = await tools.read_item({ n: 1 });\nreturn await tools.post_message({ text: a });";
    const { agent } = agentWith({ runs, turns: [programTurn(code)] });
    const stopped = await agent.send("go").final;
    const state = JSON.parse(JSON.stringify(stopped.state)) as RunState;
    const turn = state.journal["model:1"] as { content: { type: string; input?: { code: string } }[] };
    const changed =
      "const a = await tools.list_items({ n: 1 });\nreturn await tools.post_message({ text: a });";
    turn.content[0]!.input = { code: changed };
    // Changed where the pending call shows it too: a state whose two disagree is refused as it is read.
    state.pending[0]!.parent!.program = changed;
    const later = agentWith({ runs, turns: [{ text: "ok" }] });
    await later.agent.resume({ state, decisions: { "prog.2": "approve" } }).final;
    const text = textOf(
      (later.provider.requests[0]!.messages.at(-1)!.content[0] as { output: unknown }).output,
    );
    expect(text).toContain("replay diverged at call 1");
    expect(runs.map((run) => run.name)).toEqual(["read_item"]);
  });

  it("a pending call's program as stored is checked against the journaled turn: another source or program tool is refused naming the field, and nothing runs", async () => {
    const runs: { name: string; input: unknown }[] = [];
    const code = "const a = await tools.read_item({ n: 1 });\nreturn await tools.post_message({ text: a });";
    const { agent } = agentWith({ runs, turns: [programTurn(code)] });
    const stopped = await agent.send("go").final;
    expect(stopped.finishReason).toBe("approval-required");
    const stored = JSON.stringify(stopped.state);
    const edits: [string, (parent: NonNullable<RunState["pending"][number]["parent"]>) => void, string][] = [
      // What an approval inbox shows beside the call is not the program that runs.
      [
        "program",
        (parent) => {
          parent.program = "return await tools.post_message({ text: 'hello' });";
        },
        "`pending[0].parent.program` is not the source of program call prog in the model turn of step 1",
      ],
      [
        "name",
        (parent) => {
          parent.name = "read_item";
        },
        `\`pending[0].parent.name\` must be "${RUN_PROGRAM}", the tool of program call prog in the model turn of step 1`,
      ],
    ];
    for (const [field, edit, message] of edits) {
      const state = JSON.parse(stored) as RunState;
      edit(state.pending[0]!.parent!);
      const later = agentWith({ runs, turns: [{ text: "ok" }] });
      await expect(
        later.agent.resume({ state, decisions: { "prog.2": "approve" } }).final,
        field,
      ).rejects.toMatchObject({ code: "run-state-invalid", message: expect.stringContaining(message) });
    }
    expect(runs.map((run) => run.name)).toEqual(["read_item"]);
  });

  it("a state recorded (onRunState) while a program's gated call waits lists the call as the stopped state does, and resumes: the approved call runs once", async () => {
    const runs: { name: string; input: unknown }[] = [];
    const code =
      "const [sent, read] = await Promise.all([tools.post_message({ text: 'x' }), tools.read_item({ n: 1 })]);\n" +
      "return [sent, read];";
    const recorded: RunState[] = [];
    const { agent } = agentWith({ runs, turns: [programTurn(code)] });
    const stopped = await agent.send("go", {
      onRunState: (state) => {
        recorded.push(JSON.parse(JSON.stringify(state)) as RunState);
      },
    }).final;
    expect(stopped.finishReason).toBe("approval-required");
    // The read finished while the post waited: the state recorded then is the crash-recovery point.
    const saved = recorded.at(-1)!;
    expect(saved.pending).toEqual(stopped.state!.pending);
    expect(saved.pending[0]).toMatchObject({
      id: "prog.1",
      name: "post_message",
      parent: { id: "prog", name: RUN_PROGRAM, sequence: 1, program: code },
    });

    // After a crash, the recorded state is all there is: it stops again on the call, then runs it once.
    const again = await agentWith({ runs, turns: [] }).agent.resume({ state: saved, decisions: {} }).final;
    expect(again.finishReason).toBe("approval-required");
    expect(again.pending!.map((pending) => pending.id)).toEqual(["prog.1"]);
    const later = agentWith({ runs, turns: [{ text: "ok" }] });
    const resumed = await later.agent.resume({ state: again.state!, decisions: { "prog.1": "approve" } })
      .final;
    expect(resumed.finishReason).toBe("stop");
    expect(runs.map((run) => run.name)).toEqual(["read_item", "post_message"]);
  });

  it("Promise.all of ten calls with random latency and one gated: 100 runs, each resumed, make the same calls with the same arguments, the gated one once", async () => {
    const code =
      "const order = [];\n" +
      "const results = await Promise.all([1,2,3,4,5,6,7,8,9,10].map((n) => tools.read_item({ n }).then((r) => { order.push(n); return r; })));\n" +
      "// The gated call's argument depends on the order results arrived in.\n" +
      "const sent = await tools.post_message({ text: order.join(',') });\n" +
      "return [order.join(','), Math.random()];";
    const answers = new Set<string>();
    for (let run = 0; run < 100; run++) {
      const runs: { name: string; input: unknown }[] = [];
      const tools = toolsFor(runs, () => Math.floor(Math.random() * 4));
      const { agent } = agentWith({ runs, tools, turns: [programTurn(code)] });
      const stopped = await agent.send("go").final;
      expect(stopped.pending![0]!.input).toEqual({ text: "1,2,3,4,5,6,7,8,9,10" });
      const later = agentWith({
        runs,
        tools: toolsFor(runs, () => Math.floor(Math.random() * 4)),
        turns: [{ text: "ok" }],
      });
      const resumed = await later.agent.resume({
        state: JSON.parse(JSON.stringify(stopped.state)),
        decisions: { "prog.11": "approve" },
      }).final;
      expect(resumed.finishReason).toBe("stop");
      expect(runs.filter((entry) => entry.name === "post_message")).toHaveLength(1);
      expect(runs.filter((entry) => entry.name === "read_item")).toHaveLength(10);
      const text = textOf(
        (later.provider.requests[0]!.messages.at(-1)!.content[0] as { output: unknown }).output,
      );
      expect(text).not.toContain("diverged");
      answers.add(text.split("Returned: ")[1]!.split("\n")[0]!.split(",")[0]!);
    }
    expect([...answers]).toEqual(['["1']);
  }, 120_000);

  it("an approval answered in process runs the program on: the call waits, not the sandbox, and nothing runs twice", async () => {
    const runs: { name: string; input: unknown }[] = [];
    const sandbox = hostSandbox();
    const provider = scriptedModel([
      programTurn(
        "const a = await tools.read_item({ n: 1 });\nconst s = await tools.post_message({ text: a });\nreturn s;",
      ),
      { text: "ok" },
    ]);
    const agent = new Agent({
      provider,
      model: "m",
      tools: toolsFor(runs),
      approval: annotationPolicy(),
      codeMode: { sandbox },
    });
    const handle = agent.send("go");
    const seen: AgentEvent[] = [];
    for await (const event of handle) {
      seen.push(event);
      if (event.type === "tool-approval-request") {
        expect(event.item.parent?.sequence).toBe(2);
        event.approve();
      }
    }
    const result = await handle.final;
    expect(result.text).toBe("ok");
    expect(runs.map((run) => run.name)).toEqual(["read_item", "post_message"]);
    // Stopped at the question, run again once it was answered.
    expect(sandbox.runs).toBe(2);
  });

  it("traces a program as a tool call span whose nested calls are its children", async () => {
    const runs: { name: string; input: unknown }[] = [];
    const started: { name: string; id: unknown; parent: unknown }[] = [];
    const spanOf = new Map<object, unknown>();
    const tracer: Tracer = {
      startSpan(name, options) {
        const span = {
          setAttribute: () => undefined,
          setStatus: () => undefined,
          end: () => undefined,
        } as unknown as Span;
        const id = options.attributes?.["junction.tool.call_id"] ?? name;
        spanOf.set(span, id);
        started.push({ name, id, parent: options.parent ? spanOf.get(options.parent) : undefined });
        return span;
      },
    };
    const provider = scriptedModel([
      programTurn("await tools.read_item({ n: 1 }); return await tools.read_item({ n: 2 });"),
      { text: "ok" },
    ]);
    const agent = new Agent({
      provider,
      model: "m",
      tools: toolsFor(runs),
      codeMode: { sandbox: hostSandbox() },
      tracer,
    });
    await agent.send("go").final;
    const tools = started.filter((span) => span.name === "junction.tool.call");
    expect(tools).toEqual([
      { name: "junction.tool.call", id: "prog", parent: "junction.agent.send" },
      { name: "junction.tool.call", id: "prog.1", parent: "prog" },
      { name: "junction.tool.call", id: "prog.2", parent: "prog" },
    ]);
  });

  it("a program paused at the third of five calls, its state resumed twice at once (100 times): calls 1-2 are not sent again and the approved one runs once", async () => {
    const code =
      "const out = [];\n" +
      "for (let n = 1; n <= 5; n++) out.push(n === 3 ? await tools.post_message({ text: 'n' + n }) : await tools.read_item({ n }));\n" +
      "return out;";
    for (let round = 0; round < 100; round++) {
      const runs: { name: string; input: unknown }[] = [];
      const { agent } = agentWith({ runs, turns: [programTurn(code)] });
      const stopped = await agent.send("go").final;
      const state = JSON.parse(JSON.stringify(stopped.state)) as RunState;
      const claims = memoryResumeClaims();
      const resumes = [0, 1].map(() => {
        const provider = scriptedModel([{ text: "ok" }]);
        return new Agent({
          provider,
          model: "m",
          tools: toolsFor(runs),
          approval: annotationPolicy(),
          codeMode: { sandbox: hostSandbox() },
          resumeClaims: claims,
        }).resume({ state, decisions: { "prog.3": "approve" } }).final;
      });
      const outcomes = await Promise.allSettled(resumes);
      expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(["fulfilled", "rejected"]);
      expect(runs.map((run) => run.name)).toEqual([
        "read_item",
        "read_item",
        "post_message",
        "read_item",
        "read_item",
      ]);
    }
  }, 120_000);

  it("with deferred tools, a program searches and calls what it finds; the description declares only the loaded tools", async () => {
    const runs: { name: string; input: unknown }[] = [];
    const deferred = (name: string, description: string): Tool => ({
      ...recordingTool(name, runs, { annotations: READ }),
      description,
      defer: true,
    });
    const tools = [
      ...toolsFor(runs).slice(0, 4),
      deferred("get_weather", "Gets the weather forecast for a city"),
      deferred("create_issue", "Files an issue in the tracker"),
    ];
    const code =
      "const found = await tools.search_tools({ query: 'weather forecast' });\n" +
      "const forecast = await tools['get_weather']({ text: 'Oslo' });\n" +
      "return [JSON.stringify(found).includes('get_weather'), forecast];";
    const { agent, provider } = agentWith({
      runs,
      tools,
      approval: false,
      turns: [programTurn(code), { text: "ok" }],
    });
    await agent.send("weather in Oslo?").final;
    const program = provider.requests[0]!.tools!.find((tool) => tool.name === RUN_PROGRAM)!;
    expect(program.description).toContain("Your tools are functions too (tools.<name>), same input.");
    expect(program.description).not.toContain("get_weather");
    expect(program.description).toContain("tools.search_tools(");
    const text = textOf((provider.requests[1]!.messages.at(-1)!.content[0] as { output: unknown }).output);
    expect(text).toContain('Returned: [true,"get_weather:"]');
    expect(runs.map((run) => run.name)).toEqual(["get_weather"]);
  });
});

describe('code mode on the provider (sandbox: "provider")', () => {
  const runsPrograms = (turns: ScriptedResponse[]) =>
    scriptedModel({ responses: turns, capabilities: { programmaticToolCalling: true } });

  it("sends each tool a program may call with its callers and no run_program; a program's call is gated like a direct one", async () => {
    const runs: { name: string; input: unknown }[] = [];
    // The vendor's program called post_message (open-world, not read-only): the policy asks.
    const provider = runsPrograms([
      { toolCalls: [{ id: "c1", name: "post_message", input: { text: "hi" } }] },
    ]);
    const agent = new Agent({
      provider,
      model: "m",
      tools: toolsFor(runs),
      approval: annotationPolicy(),
      approvalTimeoutMs: 0,
      codeMode: { sandbox: "provider", tools: { "list_*": "code" } },
    });
    const result = await agent.send("Post the count.").final;
    expect(provider.requests[0]!.tools!.map((tool) => [tool.name, tool.callers])).toEqual([
      ["read_item", "both"],
      ["list_items", "code"],
      ["label_item", "both"],
      ["post_message", "both"],
      ["delete_all", undefined],
    ]);
    expect(result.finishReason).toBe("approval-required");
    expect(result.pending?.map((call) => call.id)).toEqual(["c1"]);
    expect(runs).toEqual([]);
  });

  it("is refused when the Agent is made for a model that does not run programs, naming it", () => {
    expect(
      () =>
        new Agent({
          provider: scriptedModel({ responses: [], capabilities: { programmaticToolCalling: false } }),
          model: "m",
          codeMode: { sandbox: "provider" },
        }),
    ).toThrow(
      /`codeMode: \{ sandbox: "provider" \}` needs a model that runs programs itself .*scripted's "m" does not/,
    );
  });

  it('refuses a sandbox that is neither a Sandbox nor "provider"', () => {
    expect(
      () =>
        new Agent({
          provider: runsPrograms([]),
          model: "m",
          codeMode: { sandbox: "vendor" as never },
        }),
    ).toThrow("`codeMode.sandbox` must be a Sandbox, for example codeMode: { sandbox: quickjsSandbox() }");
  });
});
