import type { Tool } from "@junction/types";
import { describe, expect, it } from "vitest";
import { hostSandbox } from "../../test/host-sandbox.js";
import { Agent, InMemoryDurability, type JSONValue, type PendingToolCall, RUN_PROGRAM } from "../index.js";
import { scriptedModel } from "../testing/index.js";

/** A port that matches a replay by position, as DBOS and Restate do, logging each operation as it starts. */
class PositionalPort extends InMemoryDurability {
  readonly ordered = true;
  readonly started: string[] = [];
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
  async publishPending(pending: PendingToolCall[]): Promise<void> {
    this.started.push(`publish ${pending.map((call) => call.id).join(",") || "[]"}`);
  }
}

function tools(ran: string[]): Tool[] {
  const make = (name: string, annotations: Tool["annotations"]): Tool => ({
    name,
    description: name,
    inputSchema: { type: "object", properties: { n: { type: "number" } } },
    annotations,
    execute: async (input: { n?: number }) => {
      await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 5)));
      ran.push(`${name} ${input.n}`);
      return `${name}:${input.n}`;
    },
  });
  return [
    make("read_item", { readOnlyHint: true, openWorldHint: false }),
    make("post_message", { openWorldHint: true }),
    make("list_a", { readOnlyHint: true, openWorldHint: false }),
    make("list_b", { readOnlyHint: true, openWorldHint: false }),
  ];
}

const code =
  "const read = await Promise.all([1, 2, 3, 4].map((n) => tools.read_item({ n })));\n" +
  "const sent = await tools.post_message({ n: read.length });\n" +
  "return [read, sent];";

async function liveRun(ran: string[]) {
  const port = new PositionalPort({ runId: "run-1" });
  const agent = new Agent({
    provider: scriptedModel([
      { toolCalls: [{ id: "p", name: RUN_PROGRAM, input: { code } }] },
      { text: "done" },
    ]),
    model: "m",
    tools: tools(ran),
    approval: (request) => (request.name === "post_message" ? "ask" : "approve"),
    codeMode: { sandbox: hostSandbox() },
  });
  const handle = agent.send("go", { durability: port });
  for await (const event of handle) {
    // Answered from outside, as an engine's client would.
    if (event.type === "tool-approval-request")
      setTimeout(() => port.deliverSignal(event.signal, { approved: true }), 3);
  }
  return { port, result: await handle.final };
}

describe("code mode on a port that replays by position (DBOS, Restate)", () => {
  it("starts a program's calls one after the other in issue order, whatever their latency; a replay makes the same operations and runs nothing again", async () => {
    const orders = new Set<string>();
    for (let round = 0; round < 20; round++) {
      const ran: string[] = [];
      const { port, result } = await liveRun(ran);
      expect(result.text).toBe("done");
      expect(ran).toEqual(["read_item 1", "read_item 2", "read_item 3", "read_item 4", "post_message 4"]);
      orders.add(port.started.join("|"));
      const replay = new PositionalPort({ runId: "run-1", journal: port.journal });
      const again = new Agent({
        provider: scriptedModel([]),
        model: "m",
        tools: tools(ran),
        approval: (request) => (request.name === "post_message" ? "ask" : "approve"),
        codeMode: { sandbox: hostSandbox() },
      });
      expect((await again.send("go", { durability: replay }).final).text).toBe("done");
      expect(replay.started).toEqual(port.started);
      expect(ran).toHaveLength(5);
    }
    expect(orders.size).toBe(1);
    const [order] = [...orders];
    expect(order!.split("|")).toEqual([
      "tools:1",
      "model:1",
      "program:1:p",
      "gate:1:p.1",
      "tool:1:p.1",
      "gate:1:p.2",
      "tool:1:p.2",
      "gate:1:p.3",
      "tool:1:p.3",
      "gate:1:p.4",
      "tool:1:p.4",
      "gate:1:p.5",
      "publish p.5",
      "wait approval:1:p.5",
      "publish []",
      "tool:1:p.5",
      "tool:1:p",
      "tools:2",
      "model:2",
    ]);
  }, 120_000);
});
