import type { ModelRequest, ModelStreamEvent } from "@junction/types";
import { collectStream, readSSEFixture, startWireFake, type WireFake } from "@junction/wire-fake";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openai } from "./openai-provider.js";

const fixture = (name: string) => readSSEFixture(new URL(`./__fixtures__/${name}`, import.meta.url));

let fake: WireFake;
beforeEach(async () => {
  fake = await startWireFake();
});
afterEach(async () => {
  await fake.close();
});

const provider = () => openai({ apiKey: "sk-test", baseURL: `${fake.url}/v1`, maxRetries: 0 });
const request = (schema: Record<string, unknown>): ModelRequest => ({
  model: "gpt-5.1",
  messages: [{ role: "user", content: "Where?" }],
  responseFormat: { type: "json", schema },
  providerOptions: { openai: { text: { verbosity: "low" } } },
});
const warnings = (events: ModelStreamEvent[]) =>
  events.flatMap((event) => (event.type === "warning" ? [event.warning] : []));

// Structured Outputs in the Responses API: `text.format` `{ type: "json_schema", name, schema, strict }`;
// strict mode wants every property required and `additionalProperties: false`
// (https://platform.openai.com/docs/guides/structured-outputs?api-mode=responses).
describe("openai() structured output", () => {
  it("sends text.format json_schema made strict, keeping other text fields, and says what it loosened", async () => {
    fake.enqueue({ chunks: fixture("openai-text.sse.txt") });
    const { events, error } = await collectStream(
      provider().stream(
        request({
          type: "object",
          properties: { city: { type: "string", minLength: 1 }, note: { type: "string" } },
          required: ["city"],
        }),
      ),
    );
    expect(error).toBeUndefined();
    expect((fake.requests[0]!.body as { text: unknown }).text).toEqual({
      verbosity: "low",
      format: {
        type: "json_schema",
        name: "answer",
        strict: true,
        schema: {
          type: "object",
          properties: { city: { type: "string" }, note: { type: ["string", "null"] } },
          required: ["city", "note"],
          additionalProperties: false,
        },
      },
    });
    expect(warnings(events).map((warning) => warning.code)).toEqual(["output-schema-loosened"]);
  });

  it("sends a schema strict mode cannot express with strict: false, and a warning", async () => {
    fake.enqueue({ chunks: fixture("openai-text.sse.txt") });
    const schema = { type: "object", additionalProperties: { type: "number" } };
    const { events, error } = await collectStream(provider().stream(request(schema)));
    expect(error).toBeUndefined();
    expect((fake.requests[0]!.body as { text: { format: unknown } }).text.format).toEqual({
      type: "json_schema",
      name: "answer",
      schema,
      strict: false,
    });
    expect(warnings(events).map((warning) => warning.code)).toEqual(["output-schema-not-strict"]);
  });
});
