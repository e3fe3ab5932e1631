import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import {
  COMMON_TOOL_NAME_RULE,
  createToolNameMapping,
  type Message,
  type ModelRequest,
  type ToolNameMapping,
} from "@junction/types";
import { describe, expect, it } from "vitest";
import {
  buildChatCompletionsRequest,
  serializeChatCompletionsRequest,
} from "./build-chatcompletions-request.js";
import { convertToChatCompletionsMessages } from "./convert-to-chatcompletions-messages.js";
import {
  type ChatCompletionsMessagesCache,
  createChatCompletionsMessagesCache,
  serializeChatCompletionsMessages,
} from "./serialize-chatcompletions-messages.js";

// A full collection on demand (`--expose-gc` without the flag): the weakly held text may go.
setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

const toolNames = createToolNameMapping(["lookup", "tool.with.dots"], COMMON_TOOL_NAME_RULE);

/** A conversation with something of every kind: parts, attachments moved, warnings, reasoning, odd characters. */
function conversation(): Message[] {
  return [
    { role: "user", content: 'Hi "there" \u2028 \\ </script> \u{1F600}' },
    {
      role: "user",
      content: [
        { type: "text", text: "Look" },
        { type: "image", data: "AAAA", mimeType: "image/png" },
        { type: "audio", data: "BBBB", mimeType: "audio/ogg" },
      ],
    },
    {
      role: "assistant",
      content: [
        {
          type: "reasoning",
          text: "thinking",
          providerMetadata: { chatcompletions: { field: "reasoning" } },
        },
        { type: "text", text: "Calling." },
        {
          type: "tool-call",
          id: "call_1",
          name: "lookup",
          input: { id: 1, nested: { list: [1, "two", null] } },
        },
        { type: "tool-call", id: "call_2", name: "tool.with.dots", input: "{not json" },
      ],
    },
    {
      role: "tool",
      content: [
        { type: "tool-result", toolCallId: "call_1", toolName: "lookup", output: "plain text" },
        {
          type: "tool-result",
          toolCallId: "call_2",
          toolName: "tool.with.dots",
          output: {
            content: [
              { type: "text", text: "with a picture" },
              { type: "image", data: "CCCC", mimeType: "image/jpeg" },
            ],
            structuredContent: { rows: 2 },
            isError: false,
          },
        },
      ],
    },
    { role: "assistant", content: [{ type: "text", text: "Done." }] },
  ];
}

const options = (
  messages: Message[],
  extra: { system?: string; echoReasoning?: boolean; toolNames?: ToolNameMapping } = {},
) => ({
  messages,
  toolNames,
  providerName: "chatcompletions",
  ...extra,
});

/** What the cache holds: how many leading messages, and their text. */
const cached = (cache: ChatCompletionsMessagesCache) => cache.last?.deref();

describe("serializeChatCompletionsMessages", () => {
  it("gives exactly JSON.stringify of the converted messages, with the same warnings, cached or not", () => {
    for (const frozen of [false, true]) {
      const messages = frozen ? deepFreeze(conversation()) : conversation();
      const expected = convertToChatCompletionsMessages(
        options(messages, { system: "Be brief.", echoReasoning: true }),
      );
      expect(expected.warnings.length).toBeGreaterThan(0);
      const cache = createChatCompletionsMessagesCache();
      for (const given of [undefined, cache, cache]) {
        const result = serializeChatCompletionsMessages(
          options(messages, { system: "Be brief.", echoReasoning: true }),
          given,
        );
        expect(result.json).toBe(JSON.stringify(expected.messages));
        expect(result.warnings).toEqual(expected.warnings);
      }
      expect(cached(cache)?.messages.length).toBe(frozen ? messages.length : undefined);
    }
  });

  it("reuses the frozen messages a request begins with, and converts only what follows them", () => {
    const prior = deepFreeze(conversation());
    const cache = createChatCompletionsMessagesCache();
    const first = [...prior, { role: "user", content: "Turn." } as Message];
    expect(serializeChatCompletionsMessages(options(first), cache).json).toBe(
      JSON.stringify(convertToChatCompletionsMessages(options(first)).messages),
    );
    // The unfrozen last message is not kept: only the frozen ones before it.
    const kept = cached(cache)!;
    expect(kept.messages).toEqual(prior);
    expect(kept.messages.every((message, index) => message === prior[index])).toBe(true);

    const second: Message[] = [
      ...first,
      { role: "assistant", content: [{ type: "tool-call", id: "call_3", name: "lookup", input: {} }] },
      {
        role: "tool",
        content: [{ type: "tool-result", toolCallId: "call_3", toolName: "lookup", output: "3" }],
      },
    ];
    const result = serializeChatCompletionsMessages(options(second), cache);
    expect(result.json).toBe(JSON.stringify(convertToChatCompletionsMessages(options(second)).messages));
    expect(result.warnings).toEqual(convertToChatCompletionsMessages(options(second)).warnings);
    // The same entry served the second request (the prefix was not converted again).
    expect(cached(cache)).toBe(kept);
  });

  it("adds newly frozen messages after the kept ones (a long-lived Agent's next run)", () => {
    const prior = deepFreeze(conversation());
    const cache = createChatCompletionsMessagesCache();
    serializeChatCompletionsMessages(options(prior), cache);
    const next = [...prior, ...deepFreeze(conversation())];
    const result = serializeChatCompletionsMessages(options(next), cache);
    expect(result.json).toBe(JSON.stringify(convertToChatCompletionsMessages(options(next)).messages));
    expect(cached(cache)?.messages).toHaveLength(next.length);
  });

  it("never serves the kept text for a different message, option or tool name", () => {
    const prior = deepFreeze(conversation());
    const cache = createChatCompletionsMessagesCache();
    serializeChatCompletionsMessages(options(prior), cache);
    const check = (messages: Message[], extra: Parameters<typeof options>[1] = {}) =>
      expect(serializeChatCompletionsMessages(options(messages, extra), cache).json).toBe(
        JSON.stringify(convertToChatCompletionsMessages(options(messages, extra)).messages),
      );
    // An equal but different object where a kept message was.
    const changed = [...prior];
    changed[0] = deepFreeze({ role: "user", content: "Something else" });
    check(changed);
    check(prior);
    // Shorter than what is kept.
    check(prior.slice(0, 2));
    check(prior);
    // Reasoning echoed now, and a tool that maps to another vendor name.
    check(prior, { echoReasoning: true });
    check(prior, { toolNames: { toVendor: (name) => `renamed_${name}`, fromVendor: (name) => name } });
    check(prior);
    // The same array, one of its messages replaced by another frozen one.
    const same = [...prior];
    check(same);
    same[1] = deepFreeze({ role: "user", content: "Replaced." });
    check(same);
  });

  it("keeps a run's text for as long as its array, through garbage collections", async () => {
    const messages = [...deepFreeze(conversation())];
    const cache = createChatCompletionsMessagesCache();
    serializeChatCompletionsMessages(options(messages), cache);
    const kept = new WeakRef(cache.byArray.get(messages)!);
    expect(kept.deref()?.messages).toHaveLength(messages.length);
    // A later job (weak references are kept through the one that made them), after a full collection.
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    expect(kept.deref()).toBeDefined();
    // The run's next step: the same array, grown, served from what was kept.
    messages.push({ role: "user", content: "More." });
    const result = serializeChatCompletionsMessages(options(messages), cache);
    expect(result.json).toBe(JSON.stringify(convertToChatCompletionsMessages(options(messages)).messages));
    expect(cache.byArray.get(messages)).toBe(kept.deref());
  });

  it("holds the last request's text only weakly once its array is gone", async () => {
    const cache = createChatCompletionsMessagesCache();
    serializeChatCompletionsMessages(options([...deepFreeze(conversation())]), cache);
    expect(cache.last?.deref()).toBeDefined();
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    expect(cache.last?.deref()).toBeUndefined();
  });

  it("keeps nothing of a message that is not deeply frozen, and sends it as it is now", () => {
    const message = Object.freeze({
      role: "tool" as const,
      // The message is frozen; its content is not, so it may still change.
      content: [{ type: "tool-result" as const, toolCallId: "call_1", toolName: "lookup", output: "before" }],
    });
    const cache = createChatCompletionsMessagesCache();
    serializeChatCompletionsMessages(options([message]), cache);
    expect(cached(cache)).toBeUndefined();
    message.content[0]!.output = "after";
    expect(serializeChatCompletionsMessages(options([message]), cache).json).toBe(
      '[{"role":"tool","tool_call_id":"call_1","content":"after"}]',
    );
  });
});

describe("serializeChatCompletionsRequest", () => {
  it("is byte for byte JSON.stringify of the body buildChatCompletionsRequest builds", () => {
    const messages = deepFreeze(conversation());
    const requests: ModelRequest[] = [
      { model: "m", messages: [] },
      { model: 'a "quoted" model', system: "Be brief.", messages },
      { model: '"messages":[]', messages },
      // From JavaScript without a model: the body then begins with its messages.
      { model: undefined as unknown as string, messages },
      {
        model: "m",
        messages,
        tools: [
          { name: "lookup", description: "Looks up.", inputSchema: { type: "object", properties: {} } },
        ],
        toolChoice: "required",
        maxTokens: 100,
        temperature: 0.5,
        topP: 0.9,
        stopSequences: ["END"],
        providerOptions: { chatcompletions: { seed: 7, user: '"messages":[]' } },
        responseFormat: { type: "json", schema: { type: "object", properties: {} } },
      },
    ];
    const cache = createChatCompletionsMessagesCache();
    for (const request of requests) {
      for (const settings of [
        {},
        { includeUsage: false, echoReasoning: true, structuredOutputs: "json-object" as const },
      ]) {
        const built = buildChatCompletionsRequest(request, settings);
        for (const given of [undefined, cache, cache]) {
          const serialized = serializeChatCompletionsRequest(request, settings, given);
          expect(serialized.text).toBe(JSON.stringify(built.body));
          expect(serialized.warnings).toEqual(built.warnings);
        }
      }
    }
  });
});
