import { Agent } from "@junction/core";
import { collectStream } from "@junction/wire-fake";
import { type BedrockReply, bedrockEvent } from "@junction/wire-fake/bedrock";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { model, useBedrockFake } from "../test/bedrock-fake.js";

const bedrockFake = useBedrockFake();
const provider = () => bedrockFake.provider({ maxRetries: 0 });

/** A ConverseStream answer whose one text block is `pieces`. */
function textAnswer(pieces: string[]): BedrockReply {
  return {
    frames: [
      bedrockEvent("messageStart", { role: "assistant" }),
      ...pieces.map((text) => bedrockEvent("contentBlockDelta", { contentBlockIndex: 0, delta: { text } })),
      bedrockEvent("contentBlockStop", { contentBlockIndex: 0 }),
      bedrockEvent("messageStop", { stopReason: "end_turn" }),
      bedrockEvent("metadata", {
        metrics: { latencyMs: 120 },
        usage: { inputTokens: 20, outputTokens: 9, totalTokens: 29 },
      }),
    ],
  };
}

// An ordinary schema: every keyword zod writes for it but `type`s is outside Bedrock's subset.
const answer = z.object({
  n: z.number().int(),
  name: z.string().min(1).max(20),
  tags: z.array(z.string()).min(2),
  extra: z.record(z.string(), z.number()),
});

/** What Bedrock gets for `answer`, in the order sent (the schema travels as a JSON string). */
const answerSubset = {
  type: "object",
  properties: {
    n: { type: "integer" },
    name: { type: "string", description: "{minLength: 1, maxLength: 20}" },
    tags: { minItems: 1, type: "array", items: { type: "string" }, description: "{minItems: 2}" },
    extra: {
      type: "object",
      additionalProperties: false,
      properties: {},
      description: '{propertyNames: {"type":"string"}, additionalProperties: {"type":"number"}}',
    },
  },
  required: ["n", "name", "tags", "extra"],
  additionalProperties: false,
};

describe("bedrock structured output: the schema sent is the part Converse takes", () => {
  it("sends the supported subset of a zod output schema, the rest in descriptions, and returns the validated answer", async () => {
    bedrockFake.fake.enqueue(textAnswer(['{"n":3,"name":"Ada",', '"tags":["a","b"],"extra":{}}']));
    const result = await new Agent({ provider: provider(), model, output: answer }).send("Describe Ada.")
      .final;
    expect(result.output).toEqual({ n: 3, name: "Ada", tags: ["a", "b"], extra: {} });
    expect(bedrockFake.fake.requests).toHaveLength(1);
    expect(bedrockFake.fake.requests[0]!.body).toEqual({
      messages: [{ role: "user", content: [{ text: "Describe Ada." }] }],
      outputConfig: {
        textFormat: {
          type: "json_schema",
          structure: { jsonSchema: { schema: JSON.stringify(answerSubset), name: "answer" } },
        },
      },
    });
    expect(result.warnings).toEqual([
      {
        code: "output-schema-open-map",
        message:
          "Bedrock's structured output needs every object closed (additionalProperties: false), so the map at #/properties/extra was sent as an object without keys and the model can only answer {} there; the answer is still checked against the full schema. Give the object named properties, or use an array of { key, value } entries.",
      },
    ]);
  });
});

describe("bedrock structured output beside the user's own outputConfig", () => {
  const format = {
    type: "json" as const,
    schema: { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
  };
  const textFormat = {
    type: "json_schema",
    structure: {
      jsonSchema: {
        schema: JSON.stringify({
          type: "object",
          properties: { a: { type: "string" } },
          required: ["a"],
          additionalProperties: false,
        }),
        name: "answer",
      },
    },
  };

  it("keeps providerOptions.bedrock.outputConfig fields (effort) and adds the format, without a warning", async () => {
    bedrockFake.fake.enqueue(textAnswer(['{"a":"b"}']));
    const { events, error } = await collectStream(
      provider().stream({
        model,
        messages: [{ role: "user", content: "Go." }],
        providerOptions: { bedrock: { outputConfig: { effort: "high" } } },
        responseFormat: format,
      }),
    );
    expect(error).toBeUndefined();
    expect(bedrockFake.fake.requests[0]!.body).toEqual({
      messages: [{ role: "user", content: [{ text: "Go." }] }],
      outputConfig: { effort: "high", textFormat },
    });
    expect(events.filter((event) => event.type === "warning")).toEqual([]);
  });

  it("replaces a textFormat the user set too, with a warning, and keeps the other fields", async () => {
    bedrockFake.fake.enqueue(textAnswer(['{"a":"b"}']));
    const { events, error } = await collectStream(
      provider().stream({
        model,
        messages: [{ role: "user", content: "Go." }],
        providerOptions: {
          bedrock: {
            outputConfig: {
              effort: "low",
              textFormat: { type: "json_schema", structure: { jsonSchema: {} } },
            },
          },
        },
        responseFormat: format,
      }),
    );
    expect(error).toBeUndefined();
    expect(bedrockFake.fake.requests[0]!.body).toEqual({
      messages: [{ role: "user", content: [{ text: "Go." }] }],
      outputConfig: { effort: "low", textFormat },
    });
    expect(events.filter((event) => event.type === "warning")).toEqual([
      {
        type: "warning",
        warning: {
          code: "provider-option-ignored",
          message:
            "providerOptions.bedrock.outputConfig.textFormat was ignored: Junction sets the format from the request's output schema. The other outputConfig fields were kept.",
        },
      },
    ]);
  });

  it("sends providerOptions.bedrock.outputConfig as it is when the request asks for no format", async () => {
    bedrockFake.fake.enqueue(textAnswer(["Hi."]));
    const { error } = await collectStream(
      provider().stream({
        model,
        messages: [{ role: "user", content: "Go." }],
        providerOptions: { bedrock: { outputConfig: { effort: "medium" } } },
      }),
    );
    expect(error).toBeUndefined();
    expect(bedrockFake.fake.requests[0]!.body).toEqual({
      messages: [{ role: "user", content: [{ text: "Go." }] }],
      outputConfig: { effort: "medium" },
    });
  });
});
