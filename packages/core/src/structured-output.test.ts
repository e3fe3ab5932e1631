import { JunctionError, OutputError } from "@junction/types";
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { Agent, type AgentEvent, generate, stream, tool } from "./index.js";
import { scriptedModel } from "./testing/index.js";

const weather = z.object({ city: z.string(), temperatureC: z.number() });
const weatherJSONSchema = {
  type: "object",
  properties: { city: { type: "string" }, temperatureC: { type: "number" } },
  required: ["city", "temperatureC"],
  additionalProperties: false,
};
const lookup = tool({
  name: "lookup",
  description: "Looks up the weather",
  schema: z.object({ city: z.string() }),
  execute: async ({ city }) => `${city}: 21 °C`,
});
const answer = '{"city": "Paris", "temperatureC": 21}';

async function collect(handle: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of handle) events.push(event);
  return events;
}

async function rejection(promise: Promise<unknown>): Promise<OutputError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!OutputError.isInstance(error)) throw new Error(`expected an OutputError, got ${String(error)}`);
  return error;
}

describe("structured output: native-with-tools", () => {
  it("sends the format beside the tools on every step and returns the typed, validated answer", async () => {
    const provider = scriptedModel({
      capabilities: { structuredOutput: "native-with-tools" },
      responses: [
        { toolCalls: [{ id: "c1", name: "lookup", input: { city: "Paris" } }] },
        { toolCalls: [{ id: "c2", name: "lookup", input: { city: "Lyon" } }] },
        { text: answer },
      ],
    });
    const agent = new Agent({ provider, model: "m", tools: [lookup], output: weather });
    const handle = agent.send("Weather in Paris?");
    const events = await collect(handle);
    const result = await handle.final;

    expectTypeOf(result.output).toEqualTypeOf<{ city: string; temperatureC: number } | undefined>();
    expect(result.output).toEqual({ city: "Paris", temperatureC: 21 });
    expect(result.finishReason).toBe("stop");
    const schema = {
      type: "object",
      properties: { city: { type: "string" }, temperatureC: { type: "number" } },
      required: ["city", "temperatureC"],
    };
    expect(provider.requests).toHaveLength(3);
    for (const request of provider.requests) {
      expect(request.responseFormat).toEqual({ type: "json", schema, name: "answer" });
      expect(request.tools?.map((t) => t.name)).toEqual(["lookup"]);
    }
    expect(events.filter((e) => e.type === "output-delta").map((e) => e.partial)).toEqual([
      {},
      { city: "Paris" },
      { city: "Paris", temperatureC: 21 },
    ]);
    expect(events.filter((e) => e.type === "output")).toEqual([
      { type: "output", output: { city: "Paris", temperatureC: 21 } },
    ]);
    expect(events.map((e) => e.type).slice(-3)).toEqual(["step-end", "output", "finish"]);
  });

  it("repairs an invalid answer once, giving the model the validation errors", async () => {
    const provider = scriptedModel({
      capabilities: { structuredOutput: "native-with-tools" },
      responses: [{ text: '{"city": "Paris", "temperatureC": "warm"}' }, { text: answer }],
    });
    const agent = new Agent({ provider, model: "m", output: weather });
    const result = await agent.send("Weather?").final;

    expect(result.output).toEqual({ city: "Paris", temperatureC: 21 });
    expect(provider.requests[1]!.messages.at(-1)).toEqual({
      role: "user",
      content:
        "Your answer did not match the required JSON schema:\n- temperatureC: Invalid input: expected number, received string\nReply with only the corrected JSON object.",
    });
    expect(result.steps).toHaveLength(2);
  });

  it("rejects with output-invalid, the raw text and the issues, when the repair fails too", async () => {
    const provider = scriptedModel({
      capabilities: { structuredOutput: "native-with-tools" },
      responses: [{ text: "not json" }, { text: '{"city": 5}' }],
    });
    const agent = new Agent({ provider, model: "m", output: weather });
    const error = await rejection(agent.send("Weather?").final);

    expect(error.code).toBe("output-invalid");
    expect(error.text).toBe('{"city": 5}');
    expect(error.issues).toEqual([
      "city: Invalid input: expected string, received number",
      "temperatureC: Invalid input: expected number, received undefined",
    ]);
    expect(provider.requests).toHaveLength(2);
  });

  it("with outputRepairTurns: 0, fails at the first invalid answer", async () => {
    const provider = scriptedModel({
      capabilities: { structuredOutput: "native-with-tools" },
      responses: [{ text: "Paris, 21 degrees" }],
    });
    const error = await rejection(
      new Agent({ provider, model: "m", output: weather, outputRepairTurns: 0 }).send("Weather?").final,
    );
    expect(error.code).toBe("output-invalid");
    expect(error.text).toBe("Paris, 21 degrees");
    expect(error.issues[0]).toMatch(/^The answer is not JSON: /);
    expect(provider.remaining).toBe(0);
  });

  it("reads null for an optional property as absent (OpenAI's strict mode sends null there)", async () => {
    const provider = scriptedModel({
      capabilities: { structuredOutput: "native-with-tools" },
      responses: [{ text: '{"city": "Paris", "note": null, "days": [{"rain": null}]}' }],
    });
    const schema = z.object({
      city: z.string(),
      note: z.string().optional(),
      days: z.array(z.object({ rain: z.number().optional() })),
    });
    const result = await new Agent({ provider, model: "m", output: schema }).send("x").final;
    expect(result.output).toEqual({ city: "Paris", days: [{}] });
    expect(provider.requests).toHaveLength(1);
  });

  it("reads an answer inside a Markdown code fence", async () => {
    const provider = scriptedModel({
      capabilities: { structuredOutput: "native-with-tools" },
      responses: [{ text: `\`\`\`json\n${answer}\n\`\`\`` }],
    });
    const result = await new Agent({ provider, model: "m", output: weather }).send("Weather?").final;
    expect(result.output).toEqual({ city: "Paris", temperatureC: 21 });
  });
});

describe("structured output: refusals and truncation are their own errors", () => {
  it("a refusal the vendor reports apart from the text is output-refused", async () => {
    const provider = scriptedModel({
      capabilities: { structuredOutput: "native-with-tools" },
      responses: [{ text: "", refusal: "I can't help with that." }],
    });
    const error = await rejection(new Agent({ provider, model: "m", output: weather }).send("x").final);
    expect(error.code).toBe("output-refused");
    expect(error.text).toBe("I can't help with that.");
    expect(error.message).toBe("The model refused to answer: I can't help with that.");
  });

  it("a content-filter stop is output-refused, with what text there was", async () => {
    const provider = scriptedModel({
      capabilities: { structuredOutput: "final-step-only" },
      responses: [{ text: '{"city": "Par', finishReason: "content-filter" }],
    });
    const error = await rejection(new Agent({ provider, model: "m", output: weather }).send("x").final);
    expect(error.code).toBe("output-refused");
    expect(error.text).toBe('{"city": "Par');
  });

  it("an answer cut at the token limit is output-truncated, never a half object", async () => {
    const provider = scriptedModel({
      capabilities: { structuredOutput: "native-with-tools" },
      responses: [{ text: '{"city": "Paris", "tempera', finishReason: "length" }],
    });
    const handle = new Agent({ provider, model: "m", output: weather }).send("x");
    const events = await collect(handle);
    const error = await rejection(handle.final);
    expect(error.code).toBe("output-truncated");
    expect(error.text).toBe('{"city": "Paris", "tempera');
    expect(events.some((e) => e.type === "output")).toBe(false);
    expect(events.at(-1)).toEqual({ type: "error", error });
  });
});

describe("structured output: final-step-only", () => {
  it("sends tools without the format, then asks for the answer with the format and no tools", async () => {
    const provider = scriptedModel({
      capabilities: { structuredOutput: "final-step-only" },
      responses: [
        { toolCalls: [{ id: "c1", name: "lookup", input: { city: "Paris" } }] },
        { toolCalls: [{ id: "c2", name: "lookup", input: { city: "Nice" } }] },
        { text: "It is 21 °C in Paris." },
        { text: answer },
      ],
    });
    const agent = new Agent({ provider, model: "m", tools: [lookup], output: weather });
    const result = await agent.send("Weather?").final;

    expect(result.output).toEqual({ city: "Paris", temperatureC: 21 });
    expect(provider.requests.map((r) => [r.tools?.map((t) => t.name), r.responseFormat?.type])).toEqual([
      [["lookup"], undefined],
      [["lookup"], undefined],
      [["lookup"], undefined],
      [undefined, "json"],
    ]);
    expect(provider.requests[3]!.messages.at(-1)).toEqual({
      role: "user",
      content: "Now give your final answer as a JSON object matching the required schema, and nothing else.",
    });
  });

  it("sends the format on the first step when no tools are offered", async () => {
    const provider = scriptedModel({
      capabilities: { structuredOutput: "final-step-only" },
      responses: [{ text: answer }],
    });
    const result = await new Agent({ provider, model: "m", output: weather }).send("x").final;
    expect(result.output).toEqual({ city: "Paris", temperatureC: 21 });
    expect(provider.requests[0]!.responseFormat?.type).toBe("json");
    expect(provider.requests[0]!.tools).toBeUndefined();
  });

  it("repairs JSON that breaks the schema with its errors, and with the format", async () => {
    const provider = scriptedModel({
      capabilities: { structuredOutput: "final-step-only" },
      responses: [
        { toolCalls: [{ id: "c1", name: "lookup", input: { city: "Paris" } }] },
        { text: '{"city": "Paris"}' },
        { text: answer },
      ],
    });
    const result = await new Agent({ provider, model: "m", tools: [lookup], output: weather }).send("x")
      .final;
    expect(result.output).toEqual({ city: "Paris", temperatureC: 21 });
    expect(provider.requests[2]!.responseFormat?.type).toBe("json");
    expect(provider.requests[2]!.tools).toBeUndefined();
    expect(provider.requests[2]!.messages.at(-1)).toEqual({
      role: "user",
      content:
        "Your answer did not match the required JSON schema:\n- temperatureC: Invalid input: expected number, received undefined\nReply with only the corrected JSON object.",
    });
  });

  it("takes a valid JSON answer at once, with no extra turn", async () => {
    const provider = scriptedModel({
      capabilities: { structuredOutput: "final-step-only" },
      responses: [{ toolCalls: [{ id: "c1", name: "lookup", input: { city: "Paris" } }] }, { text: answer }],
    });
    const result = await new Agent({ provider, model: "m", tools: [lookup], output: weather }).send("x")
      .final;
    expect(result.output).toEqual({ city: "Paris", temperatureC: 21 });
    expect(provider.requests).toHaveLength(2);
  });
});

describe("structured output: answer-tool", () => {
  it("offers a final_answer tool beside the real ones and ends when the model calls it", async () => {
    const provider = scriptedModel({
      capabilities: { structuredOutput: "answer-tool" },
      responses: [
        { toolCalls: [{ id: "c1", name: "lookup", input: { city: "Paris" } }] },
        {
          events: [
            { type: "tool-call-start", id: "a1", name: "final_answer" },
            { type: "tool-call-delta", id: "a1", argumentsDelta: '{"city":"Pa' },
            { type: "tool-call-delta", id: "a1", argumentsDelta: 'ris","temperatureC":21}' },
            { type: "tool-call", id: "a1", name: "final_answer", input: { city: "Paris", temperatureC: 21 } },
          ],
        },
      ],
    });
    const agent = new Agent({ provider, model: "m", tools: [lookup], output: weather });
    const handle = agent.send("Weather?");
    const events = await collect(handle);
    const result = await handle.final;

    expect(result.output).toEqual({ city: "Paris", temperatureC: 21 });
    expect(result.finishReason).toBe("stop");
    for (const request of provider.requests) {
      expect(request.tools?.map((t) => t.name)).toEqual(["lookup", "final_answer"]);
      expect(request.responseFormat).toBeUndefined();
    }
    const { additionalProperties: _open, ...fromZod } = weatherJSONSchema;
    expect(provider.requests[0]!.tools![1]!.inputSchema).toEqual(fromZod);
    expect(events.filter((e) => e.type === "output-delta").map((e) => e.partial)).toEqual([
      { city: "Pa" },
      { city: "Paris", temperatureC: 21 },
    ]);
    // The answer call is no real tool call: no tool-call event, and the history stays valid.
    expect(events.filter((e) => e.type === "tool-call").map((e) => e.id)).toEqual(["c1"]);
    expect(agent.messages.at(-1)).toEqual({
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "a1",
          toolName: "final_answer",
          output: { content: [{ type: "text", text: "The answer was received." }], isError: false },
        },
      ],
    });
  });

  it("gives an invalid answer's errors back as the tool's result, and takes the corrected one", async () => {
    const provider = scriptedModel({
      capabilities: { structuredOutput: "answer-tool" },
      responses: [
        { toolCalls: [{ id: "a1", name: "final_answer", input: { city: "Paris" } }] },
        { toolCalls: [{ id: "a2", name: "final_answer", input: { city: "Paris", temperatureC: 21 } }] },
      ],
    });
    const result = await new Agent({ provider, model: "m", output: weather }).send("x").final;
    expect(result.output).toEqual({ city: "Paris", temperatureC: 21 });
    expect(provider.requests[1]!.messages.at(-1)).toEqual({
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "a1",
          toolName: "final_answer",
          output: {
            content: [
              {
                type: "text",
                text: "The answer does not match the schema:\n- temperatureC: Invalid input: expected number, received undefined\nCall final_answer again with the corrected answer.",
              },
            ],
            isError: true,
          },
        },
      ],
    });
  });

  it("fails with the raw arguments when the answer stays invalid", async () => {
    const provider = scriptedModel({
      capabilities: { structuredOutput: "answer-tool" },
      responses: [
        { toolCalls: [{ id: "a1", name: "final_answer", input: { city: 1 } }] },
        { toolCalls: [{ id: "a2", name: "final_answer", input: { city: 2 } }] },
      ],
    });
    const error = await rejection(new Agent({ provider, model: "m", output: weather }).send("x").final);
    expect(error.code).toBe("output-invalid");
    expect(error.text).toBe('{"city":2}');
    expect(error.issues).toEqual([
      "city: Invalid input: expected string, received number",
      "temperatureC: Invalid input: expected number, received undefined",
    ]);
  });

  it("asks a model that answered in prose to call the answer tool, forcing it", async () => {
    const provider = scriptedModel({
      capabilities: { structuredOutput: "answer-tool" },
      responses: [
        { text: "It is 21 °C in Paris." },
        { toolCalls: [{ id: "a1", name: "final_answer", input: { city: "Paris", temperatureC: 21 } }] },
      ],
    });
    const result = await new Agent({ provider, model: "m", output: weather }).send("x").final;
    expect(result.output).toEqual({ city: "Paris", temperatureC: 21 });
    expect(provider.requests[1]!.toolChoice).toEqual({ type: "tool", name: "final_answer" });
    expect(provider.requests[1]!.messages.at(-1)).toEqual({
      role: "user",
      content: "Now give your final answer by calling final_answer.",
    });
  });

  it("is the mode of a provider that declares none, and steps around a real tool named final_answer", async () => {
    const taken = { ...lookup, name: "final_answer" };
    const provider = scriptedModel([
      { toolCalls: [{ id: "a1", name: "final_answer_2", input: { city: "Paris", temperatureC: 21 } }] },
    ]);
    const result = await new Agent({ provider, model: "m", tools: [taken], output: weather }).send("x").final;
    expect(provider.requests[0]!.tools?.map((t) => t.name)).toEqual(["final_answer", "final_answer_2"]);
    expect(result.output).toEqual({ city: "Paris", temperatureC: 21 });
  });
});

describe("structured output: per send, stream() and generate(), JSON Schema", () => {
  it("a send()'s own output replaces the Agent's, typed from it", async () => {
    const provider = scriptedModel({
      capabilities: { structuredOutput: "native-with-tools" },
      responses: [{ text: "plain" }, { text: '{"ok": true}' }],
    });
    const agent = new Agent({ provider, model: "m" });
    const first = await agent.send("hi").final;
    expect(first.output).toBeUndefined();
    expect(provider.requests[0]!.responseFormat).toBeUndefined();
    const second = await agent.send("again", { output: z.object({ ok: z.boolean() }) }).final;
    expectTypeOf(second.output).toEqualTypeOf<{ ok: boolean } | undefined>();
    expect(second.output).toEqual({ ok: true });
  });

  it("stream() validates against a JSON Schema and streams partial objects", async () => {
    const provider = scriptedModel({
      capabilities: { structuredOutput: "native-with-tools" },
      responses: [{ text: answer }],
    });
    const handle = stream({
      provider,
      model: "m",
      messages: [{ role: "user", content: "Weather?" }],
      output: weatherJSONSchema,
    });
    const events = await collect(handle);
    expect((await handle.final).output).toEqual({ city: "Paris", temperatureC: 21 });
    expect(events.filter((e) => e.type === "output-delta")).toHaveLength(3);
    expect(provider.requests[0]!.responseFormat!.schema).toEqual(weatherJSONSchema);
  });

  it("generate() rejects a JSON Schema answer that breaks it after the repair", async () => {
    const provider = scriptedModel({
      capabilities: { structuredOutput: "native-with-tools" },
      responses: [{ text: '{"city": "Paris"}' }, { text: '{"city": "Paris", "temperatureC": "hot"}' }],
    });
    const error = await rejection(
      generate({
        provider,
        model: "m",
        messages: [{ role: "user", content: "x" }],
        output: weatherJSONSchema,
      }),
    );
    expect(error.text).toBe('{"city": "Paris", "temperatureC": "hot"}');
    expect(error.issues).toEqual(["temperatureC: Invalid input: expected number, received string"]);
  });

  it("refuses a schema whose root is not an object, before any model call", async () => {
    const provider = scriptedModel([{ text: "[]" }]);
    const failure = await generate({
      provider,
      model: "m",
      messages: [{ role: "user", content: "x" }],
      output: { type: "array", items: { type: "string" } },
    }).catch((error: unknown) => error);
    expect(JunctionError.isInstance(failure) && failure.code).toBe("invalid-argument");
    expect((failure as Error).message).toBe(
      'output: the schema\'s root must be an object (type "object"), got "array"; wrap a list or a value in an object property.',
    );
    expect(provider.requests).toHaveLength(0);
  });
});
