import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent, type AgentEvent, tool } from "./index.js";
import { scriptedModel } from "./testing/index.js";

const show = tool({
  name: "show",
  description: "Shows a note",
  schema: z.object({ note: z.string(), size: z.number() }),
  execute: async ({ note }) => `shown: ${note}`,
});

async function collect(handle: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of handle) events.push(event);
  return events;
}

const toolEvents = (events: AgentEvent[]) =>
  events.filter((event) => event.type.startsWith("tool-")).map(({ type, ...rest }) => ({ type, ...rest }));

describe("Agent: tool-input-delta while a call's arguments stream", () => {
  it("sends each piece with the text so far, in order, before the call's tool-call", async () => {
    const provider = scriptedModel([
      {
        events: [
          { type: "tool-call-start", id: "c1", name: "show" },
          { type: "tool-call-delta", id: "c1", argumentsDelta: '{"no' },
          { type: "tool-call-delta", id: "c1", argumentsDelta: 'te":"Par' },
          { type: "tool-call-delta", id: "c1", argumentsDelta: "" },
          { type: "tool-call-delta", id: "c1", argumentsDelta: 'is","size":1' },
          { type: "tool-call-delta", id: "c1", argumentsDelta: "2}" },
          { type: "tool-call", id: "c1", name: "show", input: { note: "Paris", size: 12 } },
        ],
      },
      { text: "Done." },
    ]);
    const agent = new Agent({ provider, model: "m", tools: [show] });
    const events = await collect(agent.send("Show Paris"));
    expect(
      toolEvents(events).map((event) => (event.type === "tool-result" ? { type: event.type } : event)),
    ).toEqual([
      // The first piece waits for the second: arguments that come whole do not stream.
      { type: "tool-input-delta", id: "c1", name: "show", delta: '{"note":"Par', inputText: '{"note":"Par' },
      {
        type: "tool-input-delta",
        id: "c1",
        name: "show",
        delta: 'is","size":1',
        inputText: '{"note":"Paris","size":1',
      },
      {
        type: "tool-input-delta",
        id: "c1",
        name: "show",
        delta: "2}",
        inputText: '{"note":"Paris","size":12}',
      },
      { type: "tool-call", id: "c1", name: "show", input: { note: "Paris", size: 12 } },
      { type: "tool-result" },
    ]);
  });

  it("sends none for arguments that come whole, and none for a call the model only names in its finished turn", async () => {
    const provider = scriptedModel([
      { toolCalls: [{ id: "c1", name: "show", input: { note: "whole", size: 1 } }] },
      {
        events: [
          { type: "tool-call-delta", id: "c2", argumentsDelta: '{"note":' },
          { type: "tool-call-delta", id: "c2", argumentsDelta: '"unnamed","size":2}' },
          { type: "tool-call", id: "c2", name: "show", input: { note: "unnamed", size: 2 } },
        ],
      },
      { text: "Done." },
    ]);
    const agent = new Agent({ provider, model: "m", tools: [show] });
    const events = await collect(agent.send("Show"));
    expect(events.filter((event) => event.type === "tool-input-delta")).toEqual([]);
    expect(events.filter((event) => event.type === "tool-call").map((event) => event.id)).toEqual([
      "c1",
      "c2",
    ]);
  });

  it("carries the id the call runs under when the model reuses an id, and nothing for the answer tool", async () => {
    const pieces = (id: string, name: string, texts: string[]) => [
      { type: "tool-call-start" as const, id, name },
      ...texts.map((argumentsDelta) => ({ type: "tool-call-delta" as const, id, argumentsDelta })),
    ];
    const provider = scriptedModel({
      capabilities: { structuredOutput: "answer-tool" },
      responses: [
        { toolCalls: [{ id: "c1", name: "show", input: { note: "first", size: 1 } }] },
        {
          events: [
            ...pieces("c1", "show", ['{"note":"again",', '"size":2}']),
            { type: "tool-call", id: "c1", name: "show", input: { note: "again", size: 2 } },
          ],
        },
        {
          events: [
            ...pieces("a1", "final_answer", ['{"ok":', "true}"]),
            { type: "tool-call", id: "a1", name: "final_answer", input: { ok: true } },
          ],
        },
      ],
    });
    const agent = new Agent({ provider, model: "m", tools: [show], output: z.object({ ok: z.boolean() }) });
    const events = await collect(agent.send("Show twice"));
    expect(
      events.flatMap((event) =>
        event.type === "tool-input-delta" || event.type === "tool-call"
          ? [[event.type, event.id, event.name]]
          : [],
      ),
    ).toEqual([
      ["tool-call", "c1", "show"],
      ["tool-input-delta", "c1_2", "show"],
      ["tool-call", "c1_2", "show"],
    ]);
  });
});
