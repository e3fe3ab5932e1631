import { afterEach, describe, expect, it } from "vitest";
import { startWireFake, type WireFake } from "./index.ts";

let fake: WireFake | undefined;
afterEach(async () => fake?.close());

describe("startWireFake", () => {
  it("records requests and replays chunks in order", async () => {
    fake = await startWireFake();
    fake.enqueue(
      { chunks: ["event: a\ndata: 1\n\n", "event: b\ndata: 2\n\n"] },
      { status: 429, json: { e: 1 } },
    );
    const first = await fetch(`${fake.url}/v1/messages`, { method: "POST", body: JSON.stringify({ x: 1 }) });
    expect(await first.text()).toBe("event: a\ndata: 1\n\nevent: b\ndata: 2\n\n");
    const second = await fetch(`${fake.url}/v1/messages`, { method: "POST", body: "not json" });
    expect(second.status).toBe(429);
    expect(fake.requests.map((r) => [r.path, r.body, r.text])).toEqual([
      ["/v1/messages", { x: 1 }, '{"x":1}'],
      ["/v1/messages", undefined, "not json"],
    ]);
  });

  it("answers 500 naming the request once the queue is empty", async () => {
    fake = await startWireFake();
    const response = await fetch(`${fake.url}/nothing`);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: "wire-fake: no reply queued for GET /nothing" });
  });
});

describe("startChatCompletionsToolLoop", () => {
  it("asks for the tool until enough results are in, then answers with text", async () => {
    const { startChatCompletionsToolLoop } = await import("./chat-completions-tool-loop.ts");
    fake = await startChatCompletionsToolLoop({
      toolName: "add",
      toolSteps: 1,
      toolArguments: () => ({ a: 2, b: 3 }),
    });
    const post = async (messages: unknown[]) =>
      (
        await fetch(`${fake!.url}/v1/chat/completions`, {
          method: "POST",
          body: JSON.stringify({ messages }),
        })
      ).text();
    const first = await post([{ role: "user", content: "add" }]);
    const args = [...first.matchAll(/"arguments":"((?:[^"\\]|\\.)*)"/g)]
      .map((m) => JSON.parse(`"${m[1]}"`))
      .join("");
    expect(JSON.parse(args)).toEqual({ a: 2, b: 3 });
    expect(first).toContain('"finish_reason":"tool_calls"');
    const second = await post([{ role: "tool", content: "5" }]);
    expect(second).toContain('"content":"All "');
    expect(second.trimEnd().endsWith("data: [DONE]")).toBe(true);
  });
});

describe("embeddings endpoints", () => {
  it("OpenAI's /v1/embeddings answers each input's vector, as floats or as little-endian float32 base64", async () => {
    const { openAIEmbeddings } = await import("./embeddings.ts");
    fake = await startWireFake();
    fake.enqueue(
      openAIEmbeddings((text) => [text.length, 0.5]),
      openAIEmbeddings((text) => [text.length, 0.5]),
    );
    const post = async (body: unknown) =>
      (await fetch(`${fake!.url}/v1/embeddings`, { method: "POST", body: JSON.stringify(body) })).json();
    expect(await post({ model: "m", input: "abc" })).toEqual({
      object: "list",
      data: [{ object: "embedding", index: 0, embedding: [3, 0.5] }],
      model: "m",
      usage: { prompt_tokens: 3, total_tokens: 3 },
    });
    const base64 = (await post({ model: "m", input: ["a", "bb"], encoding_format: "base64" })) as {
      data: { embedding: string }[];
    };
    expect(
      base64.data.map((entry) => {
        const bytes = Buffer.from(entry.embedding, "base64");
        return [...new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4)];
      }),
    ).toEqual([
      [1, 0.5],
      [2, 0.5],
    ]);
  });

  it("Gemini's batchEmbedContents answers one embedding per request", async () => {
    const { geminiEmbeddings } = await import("./embeddings.ts");
    fake = await startWireFake();
    fake.enqueue(geminiEmbeddings((text) => [text.length]));
    const response = await fetch(`${fake.url}/v1beta/models/gemini-embedding-001:batchEmbedContents`, {
      method: "POST",
      body: JSON.stringify({
        requests: [
          { content: { parts: [{ text: "ab" }, { text: "c" }] } },
          { content: { parts: [{ text: "" }] } },
        ],
      }),
    });
    expect(await response.json()).toEqual({ embeddings: [{ values: [3] }, { values: [0] }] });
  });
});
