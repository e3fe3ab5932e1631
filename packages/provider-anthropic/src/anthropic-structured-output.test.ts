import { Agent } from "@junction/core";
import {
  anthropicStream,
  anthropicText,
  collectStream,
  startWireFake,
  type WireFake,
} from "@junction/wire-fake";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { anthropic } from "./anthropic-provider.js";

let fake: WireFake;
beforeEach(async () => {
  fake = await startWireFake();
});
afterEach(async () => {
  await fake.close();
});

const model = "claude-sonnet-4-6";
const provider = () => anthropic({ apiKey: "test-key", baseURL: fake.url, maxRetries: 0 });

/** A Messages API stream whose one text block is `pieces`. */
function textAnswer(pieces: string[]): { chunks: string[] } {
  return {
    chunks: anthropicStream({
      id: "msg_structured",
      model,
      blocks: [anthropicText(...pieces)],
      stopReason: "end_turn",
      usage: { input_tokens: 20, output_tokens: 1 },
    }),
  };
}

// An ordinary schema: every keyword zod writes for it but `type`s is outside Anthropic's subset.
const answer = z.object({
  n: z.number().int(),
  name: z.string().min(1).max(20),
  tags: z.array(z.string()).min(2),
  extra: z.record(z.string(), z.number()),
});

const openMapWarning = {
  code: "output-schema-open-map",
  message:
    "Anthropic's structured output needs every object closed (additionalProperties: false), so the map at #/properties/extra was sent as an object without keys and the model can only answer {} there; the answer is still checked against the full schema. Give the object named properties, or use an array of { key, value } entries.",
};

describe("anthropic structured output: the schema sent is the part the Messages API takes", () => {
  it("sends the supported subset of a zod output schema, the rest in descriptions, and returns the validated answer", async () => {
    fake.enqueue(textAnswer(['{"n":3,"name":"Ada",', '"tags":["a","b"],"extra":{}}']));
    const result = await new Agent({ provider: provider(), model, output: answer }).send("Describe Ada.")
      .final;
    expect(result.output).toEqual({ n: 3, name: "Ada", tags: ["a", "b"], extra: {} });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.body).toEqual({
      model,
      max_tokens: 4096,
      messages: [{ role: "user", content: "Describe Ada." }],
      stream: true,
      output_config: {
        format: {
          type: "json_schema",
          schema: {
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
          },
        },
      },
    });
    expect(result.warnings).toEqual([openMapWarning]);
  });

  it("keeps the user's own output_config fields beside the format, and warns when the user set the format too", async () => {
    fake.enqueue(textAnswer(['{"n":1,"name":"A","tags":["a","b"],"extra":{}}']));
    const { events, error } = await collectStream(
      provider().stream({
        model,
        messages: [{ role: "user", content: "Go." }],
        providerOptions: {
          anthropic: { output_config: { effort: "low", format: { type: "json_schema", schema: {} } } },
        },
        responseFormat: {
          type: "json",
          schema: { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
        },
      }),
    );
    expect(error).toBeUndefined();
    expect(fake.requests[0]!.body.output_config).toEqual({
      effort: "low",
      format: {
        type: "json_schema",
        schema: {
          type: "object",
          properties: { a: { type: "string" } },
          required: ["a"],
          additionalProperties: false,
        },
      },
    });
    expect(events.filter((event) => event.type === "warning")).toEqual([
      {
        type: "warning",
        warning: {
          code: "provider-option-ignored",
          message:
            "providerOptions.anthropic.output_config.format was ignored: Junction sets the format from the request's output schema. The other output_config fields were kept.",
        },
      },
    ]);
  });
});
