import { JunctionError, type Tool } from "@junction/types";
import { describe, expect, it } from "vitest";
import {
  Agent,
  type AgentEvent,
  type AgentHandle,
  annotationPolicy,
  argumentsDigest,
  type Resume,
  type RunState,
} from "./index.js";
import { scriptedModel } from "./testing/index.js";

/** A tool that counts its runs; `readOnly` tools run unasked under annotationPolicy(). */
function countingTool(
  name: string,
  runs: string[],
  options: { readOnly?: boolean; schema?: Tool["inputSchema"] } = {},
): Tool {
  return {
    name,
    description: `The ${name} tool`,
    inputSchema: options.schema ?? { type: "object", properties: { path: { type: "string" } } },
    ...(options.readOnly ? { annotations: { readOnlyHint: true, openWorldHint: false } } : {}),
    execute: async (input: { path?: string }) => {
      runs.push(name);
      return `${name} ${input.path ?? ""}`.trim();
    },
  };
}

/** Step 1 of every run here: a read-only call (runs unasked) and a write (asks). */
const firstTurn = {
  toolCalls: [
    { id: "read", name: "read_file", input: { path: "/notes" } },
    { id: "write", name: "write_file", input: { path: "/notes/tidy" } },
  ],
};

async function stoppedRun(runs: string[]) {
  const provider = scriptedModel([firstTurn]);
  const agent = new Agent({
    provider,
    model: "m",
    tools: [countingTool("read_file", runs, { readOnly: true }), countingTool("write_file", runs)],
    approval: annotationPolicy(),
  });
  const result = await agent.send("Tidy my notes").final;
  return { agent, provider, result, state: JSON.parse(JSON.stringify(result.state)) as RunState };
}

function resumedAgent(runs: string[], turns: Parameters<typeof scriptedModel>[0], tools?: Tool[]) {
  const provider = scriptedModel(turns);
  const agent = new Agent({
    provider,
    model: "m",
    tools: tools ?? [countingTool("read_file", runs, { readOnly: true }), countingTool("write_file", runs)],
    approval: annotationPolicy(),
  });
  return { agent, provider };
}

function lastToolResults(messages: { role: string; content: unknown }[]) {
  const tool = messages.findLast((message) => message.role === "tool");
  return ((tool?.content ?? []) as { toolCallId: string; output: unknown }[]).map((part) => [
    part.toolCallId,
    part.output,
  ]);
}

describe("runs that stop for approvals (approval-required) and resume", () => {
  it("send().final with nobody reading events ends with approval-required, the pending call and a JSON state, instead of hanging", async () => {
    const runs: string[] = [];
    const { provider, result, agent } = await stoppedRun(runs);
    expect(result.finishReason).toBe("approval-required");
    expect(result.pending).toEqual([
      {
        id: "write",
        name: "write_file",
        input: { path: "/notes/tidy" },
        step: 1,
        toolDigest: result.state!.tools.find((tool) => tool.name === "write_file")!.digest,
        argumentsDigest: await argumentsDigest({ path: "/notes/tidy" }),
      },
    ]);
    // The read-only call of the same step ran; the write did not.
    expect(runs).toEqual(["read_file"]);
    expect(provider.requests).toHaveLength(1);
    const state = result.state!;
    expect(state).toMatchObject({
      kind: "junction.run-state",
      version: 1,
      step: 1,
      model: "m",
      provider: "scripted",
    });
    expect(state.messages).toEqual([{ role: "user", content: "Tidy my notes" }]);
    expect(Object.keys(state.journal).sort()).toEqual([
      "gate:1:read",
      "gate:1:write",
      "model:1",
      "tool:1:read",
    ]);
    expect(state.tools.map((tool) => tool.name)).toEqual(["read_file", "write_file"]);
    expect(state.tools[0]!.digest).toMatch(/^[0-9a-f]{64}$/);
    // The stopped step is not in the conversation until the run resumes.
    expect(agent.messages).toEqual([{ role: "user", content: "Tidy my notes" }]);
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
  });

  it("resume() in a new Agent with an approval runs only the pending call and asks the model only for the next step", async () => {
    const runs: string[] = [];
    const { state } = await stoppedRun(runs);
    const later: string[] = [];
    const { agent, provider } = resumedAgent(later, [{ text: "Tidied." }]);
    const events: AgentEvent[] = [];
    const handle = agent.resume({ state, decisions: { write: "approve" } });
    for await (const event of handle) events.push(event);
    const result = await handle.final;
    expect(result.finishReason).toBe("stop");
    expect(result.text).toBe("Tidied.");
    expect(later).toEqual(["write_file"]);
    expect(provider.requests).toHaveLength(1);
    expect(lastToolResults(provider.requests[0]!.messages)).toEqual([
      ["read", "read_file /notes"],
      ["write", "write_file /notes/tidy"],
    ]);
    expect(result.steps.map((step) => step.step)).toEqual([1, 2]);
    // Usage covers the whole run: step 1's model call (10 in) once, and step 2's.
    expect(result.usage.inputTokens).toBe(20);
    // Only the call that ran now reports a result; nothing asked again.
    expect(events.filter((event) => event.type === "tool-result").map((event) => event.id)).toEqual([
      "write",
    ]);
    expect(events.some((event) => event.type === "tool-approval-request")).toBe(false);
    expect(agent.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant"]);
  });

  it("a denial on resume reaches the model as an error result with its reason", async () => {
    const runs: string[] = [];
    const { state } = await stoppedRun(runs);
    const { agent, provider } = resumedAgent(runs, [{ text: "Left alone." }]);
    await agent.resume({ state, decisions: { write: { deny: "no" } } }).final;
    expect(runs).toEqual(["read_file"]);
    expect(lastToolResults(provider.requests[0]!.messages)[1]).toEqual([
      "write",
      {
        content: [
          {
            type: "text",
            text: 'The call to tool "write_file" was denied: no. Do not call it again unless the user asks.',
          },
        ],
        isError: true,
      },
    ]);
  });

  it("a denial on resume stands when the resuming Agent's policy would now let the call run, or it has no policy: the call is not run", async () => {
    const denied = [
      "write",
      {
        content: [
          {
            type: "text",
            text: 'The call to tool "write_file" was denied: no. Do not call it again unless the user asks.',
          },
        ],
        isError: true,
      },
    ];
    for (const approval of [() => "approve" as const, undefined]) {
      const runs: string[] = [];
      const { state } = await stoppedRun(runs);
      const provider = scriptedModel([{ text: "Left alone." }]);
      const agent = new Agent({
        provider,
        model: "m",
        tools: [countingTool("read_file", runs, { readOnly: true }), countingTool("write_file", runs)],
        ...(approval ? { approval } : {}),
      });
      const resumed = await agent.resume({ state, decisions: { write: { deny: "no" } } }).final;
      expect(resumed.finishReason).toBe("stop");
      expect(runs).toEqual(["read_file"]);
      expect(lastToolResults(provider.requests[0]!.messages)[1]).toEqual(denied);
    }
  });

  it("a pending call without a decision stops the run again with the same pending call", async () => {
    const runs: string[] = [];
    const { state } = await stoppedRun(runs);
    const { agent, provider } = resumedAgent(runs, []);
    const again = await agent.resume({ state }).final;
    expect(again.finishReason).toBe("approval-required");
    expect(again.pending?.map((call) => call.id)).toEqual(["write"]);
    expect(again.state?.runId).toBe(state.runId);
    expect(provider.requests).toHaveLength(0);
    expect(runs).toEqual(["read_file"]);
  });

  it("in-process approve() still answers when the events are read", async () => {
    const runs: string[] = [];
    const provider = scriptedModel([firstTurn, { text: "ok" }]);
    const agent = new Agent({
      provider,
      model: "m",
      tools: [countingTool("read_file", runs, { readOnly: true }), countingTool("write_file", runs)],
      approval: annotationPolicy(),
    });
    const handle = agent.send("x");
    for await (const event of handle) if (event.type === "tool-approval-request") event.approve();
    expect((await handle.final).finishReason).toBe("stop");
    expect(runs.sort()).toEqual(["read_file", "write_file"]);
  });

  it("approvalTimeoutMs ends a run whose reader does not answer", async () => {
    const runs: string[] = [];
    const agent = new Agent({
      provider: scriptedModel([firstTurn]),
      model: "m",
      tools: [countingTool("read_file", runs, { readOnly: true }), countingTool("write_file", runs)],
      approval: annotationPolicy(),
      approvalTimeoutMs: 30,
    });
    const handle = agent.send("x");
    const types: string[] = [];
    for await (const event of handle) types.push(event.type);
    expect(types).toContain("tool-approval-request");
    expect(types.at(-1)).toBe("finish");
    expect((await handle.final).finishReason).toBe("approval-required");
  });

  it("a run's own approvalTimeoutMs: 0 stops at once while its events are read, with a state to resume", async () => {
    const runs: string[] = [];
    const provider = scriptedModel([firstTurn, { text: "done" }]);
    const agent = new Agent({
      provider,
      model: "m",
      tools: [countingTool("read_file", runs, { readOnly: true }), countingTool("write_file", runs)],
      approval: annotationPolicy(),
    });
    const handle = agent.send("Tidy", { approvalTimeoutMs: 0 });
    const types: string[] = [];
    for await (const event of handle) types.push(event.type);
    expect(types).toContain("tool-approval-request");
    const stopped = await handle.final;
    expect(stopped.finishReason).toBe("approval-required");
    expect(stopped.pending?.map((call) => call.id)).toEqual(["write"]);
    const resumed = agent.resume(
      { state: stopped.state, decisions: { write: "approve" } },
      { approvalTimeoutMs: 0 },
    );
    for await (const _event of resumed) {
      // read, as a server reporting progress does
    }
    expect((await resumed.final).text).toBe("done");
    expect(runs).toEqual(["read_file", "write_file"]);
  });

  it("send() after a stopped run closes it: the finished result stays, the pending call is denied", async () => {
    const runs: string[] = [];
    const provider = scriptedModel([firstTurn, { text: "fine" }]);
    const agent = new Agent({
      provider,
      model: "m",
      tools: [countingTool("read_file", runs, { readOnly: true }), countingTool("write_file", runs)],
      approval: annotationPolicy(),
    });
    expect((await agent.send("Tidy").final).finishReason).toBe("approval-required");
    await agent.send("Never mind").final;
    const results = lastToolResults(provider.requests[1]!.messages.slice(0, 3));
    expect(results[0]).toEqual(["read", "read_file /notes"]);
    expect(JSON.stringify(results[1])).toContain("the user went on without answering");
    expect(provider.requests[1]!.messages.at(-1)).toEqual({ role: "user", content: "Never mind" });
    expect(runs).toEqual(["read_file"]);
  });
});

describe("resume fails closed", () => {
  async function resumeWith(state: RunState, tools: Tool[]) {
    const runs: string[] = [];
    const { agent, provider } = resumedAgent(runs, [{ text: "after" }], tools);
    const events: AgentEvent[] = [];
    const handle = agent.resume({ state, decisions: { write: "approve" } });
    for await (const event of handle) events.push(event);
    await handle.final;
    const warnings = events.flatMap((event) => (event.type === "warning" ? [event.warning] : []));
    const writeResult = lastToolResults(provider.requests[0]!.messages)[1]![1];
    return { runs, warnings, writeText: JSON.stringify(writeResult) };
  }

  it("a tool removed since the run stopped is denied with a reason the model sees", async () => {
    const { state } = await stoppedRun([]);
    const runs: string[] = [];
    const { warnings, writeText } = await resumeWith(state, [
      countingTool("read_file", runs, { readOnly: true }),
    ]);
    expect(writeText).toContain('the tool \\"write_file\\" is no longer available, so it was not run');
    expect(warnings.map((warning) => warning.code)).toContain("run-state-mismatch");
    expect(runs).toEqual([]);
  });

  it("a tool whose schema changed is denied, never run", async () => {
    const { state } = await stoppedRun([]);
    const runs: string[] = [];
    const changed = countingTool("write_file", runs, {
      schema: { type: "object", properties: { path: { type: "string" }, recursive: { type: "boolean" } } },
    });
    const { writeText } = await resumeWith(state, [
      countingTool("read_file", runs, { readOnly: true }),
      changed,
    ]);
    expect(writeText).toContain("changed (description, schema or annotations) since the run stopped");
    expect(runs).toEqual([]);
  });

  it("edited arguments are denied, never run", async () => {
    const { state } = await stoppedRun([]);
    state.pending[0]!.input = { path: "/etc/passwd" };
    const runs: string[] = [];
    const { writeText } = await resumeWith(state, [
      countingTool("read_file", runs, { readOnly: true }),
      countingTool("write_file", runs),
    ]);
    expect(writeText).toContain("its arguments in the saved run differ from what the model asked for");
    expect(runs).toEqual([]);
  });

  it("arguments edited in the journaled model answer are denied too", async () => {
    const { state } = await stoppedRun([]);
    const turn = state.journal["model:1"] as { content: { type: string; id?: string; input?: unknown }[] };
    turn.content.find((part) => part.id === "write")!.input = { path: "/etc/passwd" };
    const runs: string[] = [];
    const { writeText } = await resumeWith(state, [
      countingTool("read_file", runs, { readOnly: true }),
      countingTool("write_file", runs),
    ]);
    expect(writeText).toContain("differ from what the model asked for");
    expect(runs).toEqual([]);
  });

  it("a tool that now comes from another source is denied", async () => {
    const { state } = await stoppedRun([]);
    state.tools = state.tools.map((tool) =>
      tool.name === "write_file" ? { ...tool, source: 'MCP source "old"' } : tool,
    );
    const runs: string[] = [];
    const { writeText } = await resumeWith(state, [
      countingTool("read_file", runs, { readOnly: true }),
      countingTool("write_file", runs),
    ]);
    expect(writeText).toContain('now comes from the local tools, not MCP source \\"old\\"');
    expect(runs).toEqual([]);
  });

  it("an unknown version, a malformed state and a decision for no pending call are refused with what is wrong", async () => {
    const { state } = await stoppedRun([]);
    const { agent } = resumedAgent([], []);
    const refusal = async (value: unknown, decisions = {}) => {
      const error = await agent
        .resume({ state: value, decisions: decisions })
        .final.catch((caught: unknown) => caught);
      expect(JunctionError.isInstance(error)).toBe(true);
      return error as JunctionError;
    };
    const future = await refusal({ ...state, version: 2 });
    expect(future.code).toBe("run-state-invalid");
    expect(future.message).toContain("its version is 2; this Junction reads version 1");
    const noModel = await refusal({ ...state, journal: {} });
    expect(noModel.message).toContain('no model answer for step 1 ("model:1")');
    expect((await refusal("{not json")).message).toContain("it is not JSON");
    expect((await refusal({ ...state, messages: [{ role: "robot" }] })).message).toContain(
      'unknown role "robot"',
    );
    const unknown = await refusal(state, { nope: "approve" });
    expect(unknown.code).toBe("invalid-argument");
    expect(unknown.message).toContain('there is no pending call "nope"; the pending calls are "write"');
    const bad = await refusal(state, { write: "yes" });
    expect(bad.message).toContain('must be "approve", "deny" or { deny: "reason" }');
  });
});

describe("resume() arguments a newcomer gets wrong (issue 26)", () => {
  const howToPass =
    'pass the `state` of a result whose finishReason is "approval-required" (`result.state`), as the object or parsed back from its JSON, ' +
    'for example agent.resume({ state: result.state, decisions: { [result.pending[0].id]: "approve" } }).';

  async function refusal(value: unknown, decisions?: unknown): Promise<JunctionError> {
    const { agent } = resumedAgent([], []);
    const error = await agent
      .resume({ state: value, decisions: decisions as Record<string, "approve"> })
      .final.catch((caught: unknown) => caught);
    expect(JunctionError.isInstance(error)).toBe(true);
    return error as JunctionError;
  }

  it("the former two-argument form resume(state, decisions) is refused with the form to write, and nothing runs", async () => {
    const runs: string[] = [];
    const { state } = await stoppedRun([]);
    const { agent, provider } = resumedAgent(runs, [{ text: "Tidied." }]);
    const expected =
      "resume(): `resume` is a run state itself; it takes one value, { state, decisions } " +
      "(agent.resume(state, decisions) is now agent.resume({ state, decisions })): " +
      'for example agent.resume({ state: result.state, decisions: { [result.pending[0].id]: "approve" } }).';
    const legacy = agent.resume as unknown as (state: unknown, decisions: unknown) => AgentHandle;
    for (const given of [state, JSON.stringify(state)]) {
      const error = await legacy
        .call(agent, given, { write: "approve" })
        .final.catch((caught: unknown) => caught);
      expect(JunctionError.isInstance(error)).toBe(true);
      expect((error as JunctionError).code).toBe("invalid-argument");
      expect((error as JunctionError).message).toBe(expected);
    }
    expect(runs).toEqual([]);
    expect(provider.requests).toHaveLength(0);
  });

  it("no Resume value at all, or a whole result as the value, names `resume` and says what to pass", async () => {
    const { result } = await stoppedRun([]);
    const { agent } = resumedAgent([], []);
    const refused = async (value: unknown) =>
      (await agent.resume(value as Resume).final.catch((caught: unknown) => caught)) as JunctionError;
    const nothing = await refused(undefined);
    expect(nothing.code).toBe("run-state-invalid");
    expect(nothing.message).toBe(
      'resume(): `resume` is undefined; pass { state, decisions }, for example agent.resume({ state: result.state, decisions: { [result.pending[0].id]: "approve" } }).',
    );
    const whole = await refused(result);
    expect(whole.code).toBe("run-state-invalid");
    expect(whole.message).toBe(
      "resume(): `resume` is a whole run result, not its state; pass `result.state`.",
    );
  });

  it("a missing state names the argument and says what to pass", async () => {
    for (const [value, described] of [
      [undefined, "undefined"],
      [null, "null"],
      [42, "a number"],
    ] as const) {
      const error = await refusal(value);
      expect(error.code).toBe("run-state-invalid");
      expect(error.message).toBe(`resume(): \`resume.state\` is ${described}; ${howToPass}`);
    }
  });

  it("the whole result instead of its state is named as such", async () => {
    const { result } = await stoppedRun([]);
    const error = await refusal(result);
    expect(error.code).toBe("run-state-invalid");
    expect(error.message).toBe(
      "resume(): `resume.state` is a whole run result, not its state; pass `result.state`.",
    );
    const ended = await refusal({ ...result, finishReason: "stop" });
    expect(ended.message).toBe(
      'resume(): `resume.state` is the result of a run that ended (finishReason "stop"): only a run that stopped with "approval-required" has a `state` to resume.',
    );
  });

  it("decisions of the wrong shape name the argument, the pending calls and what a decision looks like", async () => {
    const { state } = await stoppedRun([]);
    const expected = (described: string) =>
      `resume(): \`resume.decisions\` is ${described}; pass an object with a decision per pending call id, ` +
      'for example { "write": "approve" } (a decision is "approve", "deny" or { deny: "reason" }; the pending calls are "write").';
    for (const [decisions, described] of [
      [null, "null"],
      [["approve"], "an array"],
      ["approve", "a string"],
      // Read as an object, a Map has no entries: its approvals would be dropped without a word.
      [new Map([["write", "approve"]]), "a Map"],
    ] as const) {
      const error = await refusal(state, decisions);
      expect(error.code).toBe("invalid-argument");
      expect(error.message).toBe(expected(described));
    }
  });
});
