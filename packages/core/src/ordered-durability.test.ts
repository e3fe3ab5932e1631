import type { Tool } from "@junction/types";
import { describe, expect, it } from "vitest";
import {
  Agent,
  approvalSignalFor,
  argumentsDigest,
  type Durability,
  InMemoryDurability,
  type JSONValue,
  type PendingToolCall,
  parseRunState,
  type RunState,
} from "./index.js";
import { scriptedModel } from "./testing/index.js";

/**
 * A port that matches a replay by position, as DBOS and Restate do: it logs every operation in
 * the order it is started, so a test can compare a live run's order with its replay's.
 */
class PositionalPort extends InMemoryDurability {
  readonly ordered = true;
  readonly started: string[] = [];

  // Like DBOS's and Restate's, a replayed wait is a journaled operation of its own, not a peek.
  override receivedSignal(): undefined {
    return undefined;
  }

  override step<T extends JSONValue>(key: string, run: () => Promise<T>): Promise<T> {
    this.started.push(key);
    return super.step(key, run);
  }

  override waitForSignal<T extends JSONValue>(name: string, options?: { timeoutMs?: number }) {
    this.started.push(`wait ${name}`);
    return super.waitForSignal<T>(name, options);
  }
}

function slowTool(name: string, log: string[]): Tool {
  return {
    name,
    description: name,
    inputSchema: { type: "object" },
    execute: async () => {
      log.push(`${name} ran`);
      return `${name} done`;
    },
  };
}

const turns = () => [
  {
    toolCalls: [
      { id: "a", name: "first" },
      { id: "b", name: "second", delayMs: 20 },
    ],
  },
  { text: "both done" },
];

describe("a durable engine's port that replays by position", () => {
  it("starts a step's operations in a fixed order — policy answers, then waits, then calls, each in the model's order — live and on replay alike", async () => {
    const ran: string[] = [];
    const port = new PositionalPort({ runId: "run-1" });
    const agent = new Agent({
      provider: scriptedModel(turns()),
      model: "m",
      tools: [slowTool("first", ran), slowTool("second", ran)],
      approval: () => "ask",
    });
    const handle = agent.send("go", { durability: port });
    const questions: string[] = [];
    for await (const event of handle) {
      if (event.type !== "tool-approval-request") continue;
      // The event names the signal that answers it, for an engine's client to send.
      questions.push(event.signal);
      // Answered in the reverse order, from outside, as an engine's client would.
      if (questions.length === 2) {
        setTimeout(() => port.deliverSignal(questions[1]!, { approved: true }), 5);
        setTimeout(() => port.deliverSignal(questions[0]!, { approved: true }), 15);
      }
    }
    const result = await handle.final;
    expect(questions).toEqual(["approval:1:a", "approval:1:b"]);
    expect(result.text).toBe("both done");
    const expected = [
      "tools:1",
      "model:1",
      "gate:1:a",
      "gate:1:b",
      "wait approval:1:a",
      "wait approval:1:b",
      "tool:1:a",
      "tool:1:b",
      "tools:2",
      "model:2",
    ];
    expect(port.started).toEqual(expected);
    expect(ran.sort()).toEqual(["first", "second"].map((name) => `${name} ran`));

    // A replay with the journal: the same operations in the same order, and nothing runs again.
    const replay = new PositionalPort({ runId: "run-1", journal: port.journal });
    const again = new Agent({
      provider: scriptedModel([]),
      model: "m",
      tools: [slowTool("first", ran), slowTool("second", ran)],
      approval: () => "ask",
    });
    expect((await again.send("go", { durability: replay }).final).text).toBe("both done");
    expect(replay.started).toEqual(expected);
    expect(ran).toHaveLength(2);
  });

  it("does not start a tool call while the model is still streaming, as an in-memory run does", async () => {
    const log: string[] = [];
    const port = new PositionalPort();
    const provider = scriptedModel([
      { toolCalls: [{ id: "a", name: "first" }], text: "after the call", delayMs: 10 },
      { text: "ok" },
    ]);
    const agent = new Agent({ provider, model: "m", tools: [slowTool("first", log)] });
    await agent.send("go", { durability: port }).final;
    expect(port.started.indexOf("tool:1:a")).toBeGreaterThan(port.started.indexOf("model:1"));
    expect(port.started).not.toContain("gate:1:a");
  });
});

/** A positional port that publishes a step's pending calls, as the DBOS and Restate ports do. */
class PublishingPort extends PositionalPort {
  readonly published: PendingToolCall[][] = [];

  async publishPending(pending: PendingToolCall[]): Promise<void> {
    this.started.push(`publish ${pending.map((call) => call.id).join(",") || "[]"}`);
    this.published.push(structuredClone(pending));
  }
}

describe("pending approvals as data on an ordered port", () => {
  const askBoth = () =>
    new Agent({
      provider: scriptedModel(turns()),
      model: "m",
      tools: [slowTool("first", []), slowTool("second", [])],
      approval: () => "ask",
    });

  it("publishes the step's full list of waiting calls (with their digests) before the waits, and [] once they are answered", async () => {
    const port = new PublishingPort({ runId: "run-p" });
    const handle = askBoth().send("go", { durability: port });
    const run = handle.final;
    await waitUntil(() => port.published.length === 1);
    const [listed] = port.published;
    const digests = new Map(
      (port.journal["tools:1"] as { name: string; digest: string }[]).map((t) => [t.name, t.digest]),
    );
    expect(listed).toEqual([
      {
        id: "a",
        name: "first",
        input: {},
        step: 1,
        toolDigest: digests.get("first"),
        argumentsDigest: await argumentsDigest({}),
      },
      {
        id: "b",
        name: "second",
        input: {},
        step: 1,
        toolDigest: digests.get("second"),
        argumentsDigest: await argumentsDigest({}),
      },
    ]);
    for (const item of listed!) {
      const { name, value } = approvalSignalFor(item, "approve");
      port.deliverSignal(name, value);
    }
    expect((await run).text).toBe("both done");
    expect(port.published).toEqual([listed, []]);
    expect(port.started.slice(0, 8)).toEqual([
      "tools:1",
      "model:1",
      "gate:1:a",
      "gate:1:b",
      "publish a,b",
      "wait approval:1:a",
      "wait approval:1:b",
      "publish []",
    ]);
  });

  it("denies a call whose answer was given for other arguments or another tool than it waits with (run-state-mismatch, in the event and in final.warnings)", async () => {
    const ran: string[] = [];
    const port = new PublishingPort({ runId: "run-q" });
    const agent = new Agent({
      provider: scriptedModel(turns()),
      model: "m",
      tools: [slowTool("first", ran), slowTool("second", ran)],
      approval: () => "ask",
    });
    const handle = agent.send("go", { durability: port });
    const warnings: string[] = [];
    const events = (async () => {
      for await (const event of handle) if (event.type === "warning") warnings.push(event.warning.message);
    })();
    await waitUntil(() => port.published.length === 1);
    const [a, b] = port.published[0]!;
    // "a" was approved as a person saw it with other arguments; "b" as another tool.
    const edited = approvalSignalFor(
      { ...a!, argumentsDigest: await argumentsDigest({ path: "/" }) },
      "approve",
    );
    port.deliverSignal(edited.name, edited.value);
    const otherTool = approvalSignalFor({ ...b!, toolDigest: "0".repeat(64) }, "approve");
    port.deliverSignal(otherTool.name, otherTool.value);
    const result = await handle.final;
    await events;
    expect(ran).toEqual([]);
    const expected = [
      'The call "a" was not run: its arguments changed since the call was listed for approval, so it was not run.',
      'The call "b" was not run: the tool "second" changed since the call was listed for approval, so it was not run.',
    ];
    expect(result.warnings).toEqual(expected.map((message) => ({ code: "run-state-mismatch", message })));
    expect(warnings).toEqual(expected);
    expect(result.steps[0]!.toolResults.map((part) => part.output)).toEqual([
      {
        content: [
          {
            type: "text",
            text: 'The call to tool "first" was denied: its arguments changed since the call was listed for approval, so it was not run. Do not call it again unless the user asks.',
          },
        ],
        isError: true,
      },
      {
        content: [
          {
            type: "text",
            text: 'The call to tool "second" was denied: the tool "second" changed since the call was listed for approval, so it was not run. Do not call it again unless the user asks.',
          },
        ],
        isError: true,
      },
    ]);
  });

  it("runs a call whose answer carries the digests of the item as it was listed", async () => {
    const ran: string[] = [];
    const port = new PublishingPort({ runId: "run-r" });
    const agent = new Agent({
      provider: scriptedModel([{ toolCalls: [{ id: "a", name: "first", input: { n: 1 } }] }, { text: "ok" }]),
      model: "m",
      tools: [slowTool("first", ran)],
      approval: () => "ask",
    });
    const run = agent.send("go", { durability: port }).final;
    await waitUntil(() => port.published.length === 1);
    const { name, value } = approvalSignalFor(port.published[0]![0]!, "approve");
    expect(value).toEqual({
      approved: true,
      toolDigest: port.published[0]![0]!.toolDigest,
      argumentsDigest: await argumentsDigest({ n: 1 }),
    });
    port.deliverSignal(name, value);
    const result = await run;
    expect(result.text).toBe("ok");
    expect(result.warnings).toEqual([]);
    expect(ran).toEqual(["first ran"]);
  });
});

async function waitUntil(check: () => boolean): Promise<void> {
  for (let tries = 0; !check(); tries++) {
    if (tries > 200) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * An engine's port as `@junction/dbos` and `@junction/restate` make it: its own journal (not an
 * `InMemoryDurability`), ordered, signals only from outside, a wait that can time out.
 */
class EnginePort implements Durability {
  readonly ordered = true;
  readonly entries = new Map<string, JSONValue>();
  constructor(readonly runId: string) {}

  async step<T extends JSONValue>(key: string, run: () => Promise<T>): Promise<T> {
    if (!this.entries.has(key)) this.entries.set(key, await run());
    return this.entries.get(key) as T;
  }

  async waitForSignal<T extends JSONValue>(_name: string, options?: { timeoutMs?: number }) {
    await new Promise((resolve) => setTimeout(resolve, options?.timeoutMs ?? 0));
    return undefined as T | undefined;
  }
}

describe("a run on an engine's port stopped by approvalTimeoutMs", () => {
  const agentOn = (provider: ReturnType<typeof scriptedModel>, ran: string[]) =>
    new Agent({
      provider,
      model: "m",
      tools: [slowTool("first", ran), slowTool("second", ran)],
      approval: (call) => (call.name === "second" ? "ask" : "approve"),
      approvalTimeoutMs: 10,
    });

  it("has a real state: resumed in memory, the finished call is not run again and the model is not asked again for the step", async () => {
    const ran: string[] = [];
    const port = new EnginePort("engine-run-1");
    const stopped = await agentOn(scriptedModel(turns()), ran).send("go", { durability: port }).final;
    expect(stopped.finishReason).toBe("approval-required");
    expect(ran).toEqual(["first ran"]);
    if (stopped.finishReason !== "approval-required") return;
    const state = JSON.parse(JSON.stringify(stopped.state)) as RunState;
    expect(parseRunState(state).runId).toBe("engine-run-1");
    expect(state.pending.map((call) => call.id)).toEqual(["b"]);
    expect(state.messages).toEqual([{ role: "user", content: "go" }]);
    expect(Object.keys(state.journal).sort()).toEqual(["gate:1:a", "gate:1:b", "model:1", "tool:1:a"]);
    expect(state.tools.map((tool) => tool.name)).toEqual(["first", "second"]);
    expect(state.journal["tool:1:a"]).toEqual(port.entries.get("tool:1:a"));

    const provider = scriptedModel([{ text: "both done" }]);
    const done = await agentOn(provider, ran).resume({ state, decisions: { b: "approve" } }).final;
    expect(done.text).toBe("both done");
    expect(ran).toEqual(["first ran", "second ran"]);
    expect(provider.requests).toHaveLength(1);
  });

  it("a state is not resumed on an engine's port (its journal would start empty): invalid-argument, nothing runs", async () => {
    const ran: string[] = [];
    const stopped = await agentOn(scriptedModel(turns()), ran).send("go", {
      durability: new EnginePort("engine-run-2"),
    }).final;
    const provider = scriptedModel([{ text: "never" }]);
    const error = await agentOn(provider, ran)
      .resume(
        { state: stopped.state, decisions: { b: "approve" } },
        { durability: new EnginePort("engine-run-3") },
      )
      .final.catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: "invalid-argument",
      message:
        "resume(): a resumed run goes on in memory from its state's journal; leave out `durability` " +
        "(a run waiting on an engine is answered through the engine, not resumed).",
    });
    expect(ran).toEqual(["first ran"]);
    expect(provider.requests).toHaveLength(0);
  });
});
