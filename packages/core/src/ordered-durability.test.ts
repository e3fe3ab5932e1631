import type { Tool } from "@junction/types";
import { describe, expect, it } from "vitest";
import { Agent, InMemoryDurability, type JSONValue } from "./index.js";
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
