import type { ModelRequest } from "@junction/types";
import { collectStream, readSSEFixture, startWireFake, type WireFake } from "@junction/wire-fake";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chatCompletions } from "./chatcompletions-provider.js";

const fixture = (name: string) => readSSEFixture(new URL(`./__fixtures__/${name}`, import.meta.url));

let fake: WireFake;
beforeEach(async () => {
  fake = await startWireFake();
});
afterEach(async () => {
  await fake.close();
});

const schema = {
  type: "object",
  properties: { city: { type: "string" } },
  required: ["city"],
  additionalProperties: false,
};
const request: ModelRequest = {
  model: "gpt-4o",
  system: "Be brief.",
  messages: [{ role: "user", content: "Where?" }],
  responseFormat: { type: "json", schema, name: "answer" },
};
const provider = (structuredOutputs?: "json-schema" | "json-object" | "none") =>
  chatCompletions({
    baseURL: `${fake.url}/v1`,
    apiKey: "sk-test",
    maxRetries: 0,
    ...(structuredOutputs ? { structuredOutputs } : {}),
  });

// OpenAI documents `response_format: { type: "json_schema", json_schema: { name, schema } }` for
// Structured Outputs and `{ type: "json_object" }` for JSON mode, which needs "JSON" in the
// messages (https://platform.openai.com/docs/guides/structured-outputs?api-mode=chat).
describe("chatCompletions() structured output", () => {
  it("sends response_format json_schema by default and declares native-with-tools", async () => {
    fake.enqueue({ chunks: fixture("chatcompletions-text.sse.txt") });
    expect((await collectStream(provider().stream(request))).error).toBeUndefined();
    const body = fake.requests[0]!.body as Record<string, unknown>;
    expect(body.response_format).toEqual({ type: "json_schema", json_schema: { name: "answer", schema } });
    expect(body.messages).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "Where?" },
    ]);
    expect(provider().capabilities.structuredOutput).toBe("native-with-tools");
  });

  it("falls back to JSON mode with the schema in the system message for endpoints without json_schema", async () => {
    fake.enqueue({ chunks: fixture("chatcompletions-text.sse.txt") });
    expect((await collectStream(provider("json-object").stream(request))).error).toBeUndefined();
    const body = fake.requests[0]!.body as Record<string, unknown>;
    expect(body.response_format).toEqual({ type: "json_object" });
    expect(body.messages).toEqual([
      {
        role: "system",
        content: `Be brief.\n\nAnswer with a JSON object that matches this JSON Schema:\n${JSON.stringify(schema)}`,
      },
      { role: "user", content: "Where?" },
    ]);
    expect(provider("json-object").capabilities.structuredOutput).toBe("native-with-tools");
  });

  it("with structuredOutputs: none sends no format and leaves the answer to core's answer tool", async () => {
    fake.enqueue({ chunks: fixture("chatcompletions-text.sse.txt") });
    expect((await collectStream(provider("none").stream(request))).error).toBeUndefined();
    expect((fake.requests[0]!.body as Record<string, unknown>).response_format).toBeUndefined();
    expect(provider("none").capabilities.structuredOutput).toBe("answer-tool");
  });
});
