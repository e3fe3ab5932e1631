import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { Message } from "@junction/types";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent, stream, tool } from "./index.js";
import { scriptedModel } from "./testing/index.js";

// A full collection on demand, to see what the Agent keeps alive (`--expose-gc` without the flag).
setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

async function collected(ref: WeakRef<object>): Promise<boolean> {
  for (let pass = 0; pass < 5 && ref.deref() !== undefined; pass++) {
    // Let pending promise jobs that still hold it finish first.
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
  }
  return ref.deref() === undefined;
}

const lookup = tool({
  name: "lookup",
  description: "Looks a record up.",
  schema: z.object({ id: z.number() }),
  execute: async ({ id }) => `record ${id}`,
});

function priorConversation(): Message[] {
  return [
    { role: "user", content: "What does record 1 say?" },
    { role: "assistant", content: [{ type: "tool-call", id: "p1", name: "lookup", input: { id: 1 } }] },
    {
      role: "tool",
      content: [{ type: "tool-result", toolCallId: "p1", toolName: "lookup", output: "record 1" }],
    },
    { role: "assistant", content: [{ type: "text", text: "It says: record 1." }] },
  ];
}

const turn = () =>
  scriptedModel([{ toolCalls: [{ id: "c1", name: "lookup", input: { id: 2 } }] }, { text: "Record 2." }]);

describe("Agent: what it keeps of a conversation", () => {
  it("does not keep the caller's array once it has its own copy", async () => {
    let messages: Message[] | undefined = priorConversation();
    const ref = new WeakRef(messages);
    const agent = new Agent({ provider: turn(), model: "m", tools: [lookup], messages });
    messages = undefined;
    expect(await collected(ref)).toBe(true);
    expect(agent.messages).toEqual(priorConversation());
  });

  it("does not keep the last result alive after the caller dropped it", async () => {
    const agent = new Agent({ provider: turn(), model: "m", tools: [lookup], messages: priorConversation() });
    let result: { messages: Message[] } | undefined = await agent.send("And record 2?").final;
    const ref = new WeakRef(result.messages);
    result = undefined;
    expect(await collected(ref)).toBe(true);
    expect(agent.messages).toHaveLength(8);
  });

  it("shares the conversation's messages between runs' results instead of copying them", async () => {
    const provider = scriptedModel([{ text: "One." }, { text: "Two." }]);
    const agent = new Agent({ provider, model: "m", messages: priorConversation() });
    const first = await agent.send("First?").final;
    const second = await agent.send("Second?").final;
    expect(second.messages).toHaveLength(first.messages.length + 2);
    first.messages.forEach((message, index) => {
      expect(second.messages[index]).toBe(message);
    });
    expect(second.messages).not.toBe(first.messages);
  });

  it("a result's messages are frozen: changing them cannot change the agent's history", async () => {
    const agent = new Agent({ provider: turn(), model: "m", tools: [lookup], messages: priorConversation() });
    const result = await agent.send("And record 2?").final;
    const before = agent.messages;
    const toolMessage = result.messages[6]!;
    expect(toolMessage).toEqual({
      role: "tool",
      content: [{ type: "tool-result", toolCallId: "c1", toolName: "lookup", output: "record 2" }],
    });
    expect(() => {
      (toolMessage.content[0] as { output: string }).output = "forged";
    }).toThrow(TypeError);
    expect(() => {
      (result.messages[0] as { content: string }).content = "forged";
    }).toThrow(TypeError);
    expect(() => (result.messages[1]!.content as unknown[]).push({ type: "text", text: "forged" })).toThrow(
      TypeError,
    );
    // The array is the caller's own.
    result.messages.push({ role: "user", content: "appended" });
    result.messages.splice(0, 2);
    expect(agent.messages).toEqual(before);
    expect(agent.messages).toHaveLength(8);
  });

  it("agent.messages is a copy the caller may change without changing the agent", async () => {
    const agent = new Agent({ provider: turn(), model: "m", tools: [lookup], messages: priorConversation() });
    await agent.send("And record 2?").final;
    const copy = agent.messages;
    (copy[0] as { content: string }).content = "changed";
    (copy[2]!.content[0] as { output: string }).output = "changed";
    copy.push({ role: "user", content: "appended" });
    expect(agent.messages[0]).toEqual({ role: "user", content: "What does record 1 say?" });
    expect(agent.messages[2]).toEqual(priorConversation()[2]);
    expect(agent.messages).toHaveLength(8);
  });

  it("a caller changing the array or messages it gave does not change the agent's history", async () => {
    const messages = priorConversation();
    const provider = scriptedModel([{ text: "Fine." }]);
    const agent = new Agent({ provider, model: "m", messages });
    (messages[0] as { content: string }).content = "changed";
    ((messages[1]!.content[0] as { input: { id: number } }).input as { id: number }).id = 99;
    messages.push({ role: "user", content: "appended" });
    expect(agent.messages).toEqual(priorConversation());
    await agent.send("Go on.").final;
    expect(provider.requests[0]!.messages.slice(0, 4)).toEqual(priorConversation());
    // The caller's own objects stay as they were: unfrozen, changeable.
    expect(Object.isFrozen(messages[0])).toBe(false);
  });

  it("the messages setter copies too, and a result's messages can start a new Agent", async () => {
    const first = new Agent({ provider: turn(), model: "m", tools: [lookup], messages: priorConversation() });
    const result = await first.send("And record 2?").final;
    const provider = scriptedModel([{ text: "Noted." }]);
    const second = new Agent({ provider, model: "m", messages: result.messages });
    await second.send("Thanks.").final;
    expect(second.messages).toHaveLength(10);
    expect(second.messages.slice(0, 8)).toEqual(first.messages);
    const replaced = priorConversation();
    second.messages = replaced;
    (replaced[0] as { content: string }).content = "changed";
    expect(second.messages).toEqual(priorConversation());
  });
});

describe("stream(): a result's messages", () => {
  it("are frozen, and the caller's messages are copied, not frozen", async () => {
    const messages: Message[] = [...priorConversation(), { role: "user", content: "Go on." }];
    const handle = stream({ provider: scriptedModel([{ text: "Fine." }]), model: "m", messages });
    const result = await handle.final;
    expect(result.messages).toHaveLength(6);
    expect(result.messages.slice(0, 5)).toEqual(messages);
    expect(result.messages[0]).not.toBe(messages[0]);
    expect(Object.isFrozen(result.messages[0])).toBe(true);
    expect(Object.isFrozen(result.messages[5])).toBe(true);
    expect(Object.isFrozen(messages[0])).toBe(false);
  });
});

/** Whether a value is frozen at every level (what a provider caching by message object relies on). */
function deeplyFrozen(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(deeplyFrozen);
}

describe("what a provider is given: the Agent's frozen messages, the same objects each request", () => {
  it("sends the conversation's messages deeply frozen, as the same objects on every step and run", async () => {
    const scripted = scriptedModel([
      { toolCalls: [{ id: "c1", name: "lookup", input: { id: 2 } }] },
      { text: "Record 2." },
      { text: "Anything else." },
    ]);
    const given: Message[][] = [];
    const provider = {
      ...scripted,
      stream: (request: Parameters<typeof scripted.stream>[0]) => {
        given.push([...request.messages]); // the array, not the messages: it grows after the call
        return scripted.stream(request);
      },
    };
    const agent = new Agent({ provider, model: "m", tools: [lookup], messages: priorConversation() });
    await agent.send("And record 2?").final;
    await agent.send("Thanks.").final;

    expect(given.map((messages) => messages.length)).toEqual([5, 7, 9]);
    // The conversation given at construction: frozen copies, the same objects on both steps.
    for (const messages of given) expect(messages.slice(0, 4).every(deeplyFrozen)).toBe(true);
    given[0]!.slice(0, 4).forEach((message, index) => {
      expect(given[1]![index]).toBe(message);
      expect(given[2]![index]).toBe(message);
    });
    // The next run sends all of the last one's messages frozen: nothing of it can change any more.
    expect(given[2]!.slice(0, 8).every(deeplyFrozen)).toBe(true);
    expect(given[2]![7]).toEqual({ role: "assistant", content: [{ type: "text", text: "Record 2." }] });
    // Frozen means unchangeable, even by a provider that tries (strict mode throws).
    expect(() => {
      (given[2]![0] as { content: unknown }).content = "changed";
    }).toThrow(TypeError);
  });
});

describe("Agent: what it keeps of a run once the run has ended", () => {
  it("does not keep the run alive (its conversation array, as the provider was given it)", async () => {
    const scripted = turn();
    let given: WeakRef<Message[]> | undefined;
    const provider = {
      ...scripted,
      stream: (request: Parameters<typeof scripted.stream>[0]) => {
        given = new WeakRef(request.messages);
        return scripted.stream(request);
      },
    };
    const agent = new Agent({ provider, model: "m", tools: [lookup], messages: priorConversation() });
    await agent.send("And record 2?").final;
    expect(given?.deref()).toHaveLength(8);
    expect(await collected(given!)).toBe(true);
    expect(agent.messages).toHaveLength(8);
  });
});
