import { Agent, type AgentConfig, type AgentEvent, annotationPolicy, type RunState } from "@junction/core";
import type { Message, ModelStreamEvent, ToolCallPart } from "@junction/types";
import { startWireFake, type WireFake } from "@junction/wire-fake";
import { programmaticTools } from "@junction/wire-fake/programmatic-tools";
import { afterEach, beforeEach, describe, expect } from "vitest";
import { collect } from "./collect-events.ts";
import { contractCase } from "./contract-case.ts";
import type {
  ProgramAdapter,
  ProgramWireEntry,
  ScriptedProgramCall,
  ScriptedProgramTurn,
  VendorAdapter,
} from "./vendor-adapter.ts";

const salesCall: ScriptedProgramCall = {
  id: "sales",
  name: "sales_query",
  input: { region: "West" },
  by: "program",
};
const reportCall: ScriptedProgramCall = {
  id: "report",
  name: "send_report",
  input: { to: "boss", total: 42 },
  by: "program",
};

/** Turn 1: the model writes a program; the program calls `sales_query`, which pauses it. */
const programCallsSalesQuery: ScriptedProgramTurn = {
  responseId: "turn1",
  text: "Let me total it in code.",
  writesProgram: true,
  calls: [salesCall],
};
/** Turn 2: the program (written in turn 1) goes on and calls `send_report`. */
const programCallsSendReport: ScriptedProgramTurn = { responseId: "turn2", calls: [reportCall] };
/** Turn 3: the program has finished; the model answers. */
const programFinishes: ScriptedProgramTurn = {
  responseId: "turn3",
  programEnds: true,
  text: "Sent the West total, 42.",
};
const textTurn = (text: string): ScriptedProgramTurn => ({ responseId: "text", text });

const ask = "Total the West sales and mail them to my boss.";

/**
 * Programs the vendor runs itself (provider-mode code mode) through the vendor's real SDK and wire:
 * which tools are offered to the program, how a program's call is reported (`ToolCallPart.program`,
 * its source found in the turn or in the conversation), and, through a real Agent, that a program's
 * calls are the run's calls (validated, approved or denied, guarded, traced, resumed from a JSON
 * state in a new Agent) and go back to the vendor tied to their program. Only for vendors whose
 * adapter has `programs`.
 */
export function defineProgrammaticCallsContract(vendor: VendorAdapter): void {
  const programs = vendor.programs;
  if (programs === undefined) return;
  describe(`${vendor.name}: calls made by vendor-run programs`, () => {
    defineProgramCases(vendor, programs);
  });
}

function defineProgramCases(vendor: VendorAdapter, programs: ProgramAdapter): void {
  const contract = contractCase(vendor);
  let fake: WireFake;
  beforeEach(async () => {
    fake = await startWireFake();
  });
  afterEach(async () => {
    await fake.close();
  });
  const enqueue = (...turns: ScriptedProgramTurn[]) => fake.enqueue(...turns.map(programs.render));
  const provider = () =>
    vendor.createProvider({ baseURL: `${fake.url}${programs.basePath ?? ""}`, maxRetries: 0 });
  const bodies = () => fake.requests.map((request) => request.body as unknown);
  const callId = programs.callId;
  const named = { id: programs.program.id, runtime: programs.runtime, source: programs.program.source };

  function agent(runs: string[], extra: Partial<AgentConfig> = {}) {
    return new Agent({
      provider: provider(),
      model: programs.model,
      tools: programmaticTools(runs),
      approval: annotationPolicy(),
      // Programs run on the vendor; code mode says who may call what (three tools: a smaller
      // toolset than code mode's default minimum, so the minimum is lowered).
      codeMode: {
        sandbox: "provider",
        tools: { "sales_*": "code", send_report: "both", lookup: "direct" },
        minTools: 1,
      },
      ...extra,
    });
  }

  /** The container a request names, where the vendor runs programs in one (else always undefined). */
  const container = (body: unknown) => programs.wire.container?.read(body);
  /** The container a request answering a paused program's call must name. */
  const pausedIn = programs.wire.container?.id;

  const call = ({ id, name, input }: ScriptedProgramCall): ProgramWireEntry => ({
    kind: "call",
    id: callId(id),
    name,
    input,
    program: programs.program.id,
  });
  const result = (id: string, text: string): ProgramWireEntry => ({
    kind: "result",
    callId: callId(id),
    ...(programs.wire.resultNamesProgram ? { program: programs.program.id } : {}),
    text,
  });
  /**
   * `body` answers the program's `answered` call, in the program's container, with only an error
   * result whose text says `says` (the Agent's message).
   */
  function expectErrorAnswer(body: unknown, answered: ScriptedProgramCall, says: string) {
    expect(container(body)).toBe(pausedIn);
    const sent = programs.sentBack(body);
    expect(sent.at(-2)).toEqual(call(answered));
    const answer = sent.at(-1);
    expect(answer).toMatchObject({
      kind: "result",
      callId: callId(answered.id),
      ...(programs.wire.resultNamesProgram ? { program: programs.program.id } : {}),
      ...(programs.wire.resultFlagsErrors ? { error: true } : {}),
    });
    expect(answer?.kind === "result" ? answer.text : "").toContain(says);
  }
  /** Turn 1 as the vendor must get it back: its text, the program, and the program's call. */
  const turn1Back: ProgramWireEntry[] = [
    { kind: "text", text: "Let me total it in code." },
    { kind: "program", ...programs.program },
    call(salesCall),
  ];
  const offeredInCodeMode = {
    tools: [
      ["sales_query", "code"],
      ["send_report", "both"],
      ["lookup", undefined],
    ],
    runtime: programs.runtime,
  };

  /** Runs turns 1 and 2: `sales_query` runs unasked, then `send_report` (made by the program) needs a person. */
  async function stoppedRun(runs: string[]): Promise<RunState> {
    enqueue(programCallsSalesQuery, programCallsSendReport);
    const handle = agent(runs).send(ask, { approvalTimeoutMs: 0 });
    const events: AgentEvent[] = [];
    for await (const event of handle) events.push(event);
    const stopped = await handle.final;
    // The program's calls are the run's calls: announced, run or asked about, like direct ones.
    expect(
      events.flatMap((event) =>
        event.type === "tool-call" || event.type === "tool-result" || event.type === "tool-approval-request"
          ? [`${event.type} ${event.id}`]
          : [],
      ),
    ).toEqual([
      `tool-call ${callId("sales")}`,
      `tool-result ${callId("sales")}`,
      `tool-call ${callId("report")}`,
      `tool-approval-request ${callId("report")}`,
    ]);
    expect(stopped.finishReason).toBe("approval-required");
    expect((stopped.pending ?? []).map(({ id, name, input }) => ({ id, name, input }))).toEqual([
      { id: callId("report"), name: "send_report", input: { to: "boss", total: 42 } },
    ]);
    expect(runs).toEqual(["sales_query West"]);
    // A plain state: what a store keeps and gives back.
    return JSON.parse(JSON.stringify(stopped.state)) as RunState;
  }

  contract(
    "program-run",
    "offers the tools to the program by their callers, answers the program's calls tied to it, and resumes a paused call in a new Agent",
    async () => {
      const runs: string[] = [];
      const state = await stoppedRun(runs);
      const [first, second] = bodies();
      expect(programs.offered(first)).toEqual(offeredInCodeMode);
      expect(container(first)).toBeUndefined();
      // The program's first call answered: the turn as it came, then only its result.
      expect(container(second)).toBe(pausedIn);
      expect(programs.sentBack(second)).toEqual([
        { kind: "user", text: ask },
        ...turn1Back,
        result("sales", "42"),
      ]);

      // Another process: a new Agent resumes the plain state with the person's approval.
      enqueue(programFinishes, textTurn("You're welcome."));
      const later: string[] = [];
      const resumedAgent = agent(later);
      const resumed = await resumedAgent.resume({ state, decisions: { [callId("report")]: "approve" } })
        .final;
      expect(resumed.finishReason).toBe("stop");
      expect(resumed.text).toBe("Sent the West total, 42.");
      expect(later).toEqual(["send_report boss 42"]);
      expect(fake.requests).toHaveLength(3);
      const third = bodies()[2];
      expect(container(third)).toBe(pausedIn);
      expect(programs.sentBack(third)).toEqual([
        ...programs.sentBack(second),
        call(reportCall),
        result("report", "mailed"),
      ]);

      // The next turn sends the program's end back as it came, and no container (no call is pending).
      await resumedAgent.send("Thanks.").final;
      const fourth = bodies()[3];
      expect(container(fourth)).toBeUndefined();
      expect(programs.sentBack(fourth).slice(-3)).toEqual([
        { kind: "program-end", id: programs.program.id },
        { kind: "text", text: "Sent the West total, 42." },
        { kind: "user", text: "Thanks." },
      ]);
      // Every request of the run offers the same tools to the program.
      expect(bodies().map(programs.offered)).toEqual(bodies().map(() => offeredInCodeMode));
      // Each approved call ran once, in all.
      expect([...runs, ...later]).toEqual(["sales_query West", "send_report boss 42"]);
    },
  );

  contract(
    "program-call-denied",
    "a denied call of the program goes back to it as an error result, and the tool never runs",
    async () => {
      const state = await stoppedRun([]);
      enqueue(programFinishes);
      const later: string[] = [];
      const denied = await agent(later).resume({
        state,
        decisions: { [callId("report")]: { deny: "not today" } },
      }).final;
      expect(denied.finishReason).toBe("stop");
      expect(later).toEqual([]);
      expectErrorAnswer(bodies()[2], reportCall, "not today");
    },
  );

  contract(
    "program-call-invalid",
    "a call of the program with invalid arguments is refused by the Agent's validation before the tool runs",
    async () => {
      const runs: string[] = [];
      const invalid = { id: "bad", name: "sales_query", input: { region: 7 }, by: "program" } as const;
      enqueue({ responseId: "invalid", writesProgram: true, calls: [invalid] }, programFinishes);
      const refused = await agent(runs).send("Total the sales.").final;
      expect(refused.finishReason).toBe("stop");
      expect(runs).toEqual([]);
      expectErrorAnswer(bodies()[1], invalid, "region");
    },
  );

  contract(
    "program-exfiltration-guard",
    "the exfiltration guard stops the program's open-world call after its closed-world read, though the policy approves it",
    async () => {
      const runs: string[] = [];
      enqueue(programCallsSalesQuery, programCallsSendReport);
      const guarded = await agent(runs, { approval: () => "approve" }).send("Total and mail.").final;
      expect(guarded.finishReason).toBe("approval-required");
      expect((guarded.pending ?? []).map((pending) => pending.id)).toEqual([callId("report")]);
      expect(runs).toEqual(["sales_query West"]);
    },
  );

  contract(
    "program-call-spans",
    "each of the program's calls gets its tool span, like a direct call",
    async () => {
      const spans: { name: string; attributes: Record<string, unknown> }[] = [];
      const tracer = {
        startSpan(name: string, options: { attributes?: Record<string, unknown> }) {
          const span = { name, attributes: { ...options.attributes } };
          spans.push(span);
          return {
            setAttribute: (key: string, value: unknown) => {
              span.attributes[key] = value;
            },
            setStatus: () => undefined,
            end: () => undefined,
          };
        },
      };
      enqueue(programCallsSalesQuery, textTurn("West is 42."));
      await agent([], { tracer }).send("Total the West sales.").final;
      const toolSpans = spans.filter((span) => span.name === "junction.tool.call");
      expect(
        toolSpans.map((span) => [
          span.attributes["junction.tool.name"],
          span.attributes["junction.tool.call_id"],
        ]),
      ).toEqual([["sales_query", callId("sales")]]);
      expect(toolSpans[0]!.attributes["junction.tool.outcome"]).toBe("success");
    },
  );

  /** Streams one turn for `messages`: its tool-call events and its parts, as [id, program] pairs. */
  async function streamTurn(messages: Message[]) {
    const { events, error } = await collect(provider().stream({ model: programs.model, messages }));
    expect(error).toBeUndefined();
    const finish = events.at(-1);
    if (finish?.type !== "finish") return expect.unreachable("the stream ended without a finish event");
    const calls = events.filter(
      (event): event is Extract<ModelStreamEvent, { type: "tool-call" }> => event.type === "tool-call",
    );
    const parts = finish.content.filter((part): part is ToolCallPart => part.type === "tool-call");
    return {
      finish,
      calls: calls.map((event) => [event.id, event.program]),
      parts: parts.map((part) => [part.id, part.program]),
    };
  }
  const askMessage: Message = { role: "user", content: ask };

  contract(
    "program-on-tool-call",
    "names the program and carries the source the turn streamed, on the event and the part",
    async () => {
      enqueue(programCallsSalesQuery);
      const turn = await streamTurn([askMessage]);
      expect(turn.finish.reason).toBe("tool-calls");
      expect(turn.calls).toEqual([[callId("sales"), named]]);
      expect(turn.parts).toEqual([[callId("sales"), named]]);
    },
  );

  contract(
    "program-from-conversation",
    "a later turn's call of the same program gets its source from the conversation sent",
    async () => {
      enqueue(programCallsSalesQuery, programCallsSendReport);
      const first = await streamTurn([askMessage]);
      const second = await streamTurn([
        askMessage,
        { role: "assistant", content: first.finish.content },
        {
          role: "tool",
          content: [
            { type: "tool-result", toolCallId: callId("sales"), toolName: "sales_query", output: "42" },
          ],
        },
      ]);
      expect(second.finish.reason).toBe("tool-calls");
      expect(second.calls).toEqual([[callId("report"), named]]);
      expect(second.parts).toEqual([[callId("report"), named]]);
    },
  );

  contract("program-direct-call", "the model's own call in a program's turn names no program", async () => {
    const lookup = { id: "lookup", name: "lookup", input: { word: "west" }, by: "model" } as const;
    enqueue({ responseId: "mixed", writesProgram: true, calls: [salesCall, lookup] });
    const turn = await streamTurn([askMessage]);
    expect(turn.parts).toEqual([
      [callId("sales"), named],
      [callId("lookup"), undefined],
    ]);
    expect(turn.calls).toEqual(turn.parts);
  });

  contract(
    "program-min-tools",
    "a step with fewer tools than code mode's minimum offers every tool to the model only, with no runtime tool",
    async () => {
      enqueue(textTurn("Hi."));
      await agent([], { codeMode: { sandbox: "provider", tools: { "sales_*": "code" } } }).send("Hi").final;
      expect(programs.offered(bodies()[0])).toEqual({
        tools: [
          ["sales_query", undefined],
          ["send_report", undefined],
          ["lookup", undefined],
        ],
      });
    },
  );

  contract(
    "program-model-without",
    "declares programs for its programmatic model only; an Agent refuses provider code mode for another, naming it",
    async () => {
      const capabilities = (model: string) => provider().capabilitiesFor?.(model) ?? provider().capabilities;
      expect(capabilities(programs.model).programmaticToolCalling).toBe(true);
      expect(capabilities(programs.modelWithout).programmaticToolCalling).toBeFalsy();
      expect(
        () =>
          new Agent({
            provider: provider(),
            model: programs.modelWithout,
            tools: programmaticTools([]),
            codeMode: { sandbox: "provider" },
          }),
      ).toThrow(
        `needs a model that runs programs itself (a provider declaring programmaticToolCalling for it: Anthropic's Claude Sonnet or Opus 4.5 and later, OpenAI's GPT-5.6); ${vendor.name}'s "${programs.modelWithout}" does not. Run programs in a sandbox instead`,
      );
      expect(fake.requests).toHaveLength(0);
    },
  );
}
