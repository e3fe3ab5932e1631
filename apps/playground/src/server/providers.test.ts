import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runChatTurn, startTestPlayground, type TestPlayground } from "../testing/test-playground.js";
import { detectProviders } from "./providers.js";

describe("detectProviders", () => {
  it("lists a provider per key in the environment, never the key, and always the offline model", () => {
    const providers = detectProviders(
      { ANTHROPIC_API_KEY: "sk-ant-x", OPENAI_API_KEY: "sk-x", GOOGLE_API_KEY: "g-x" },
      { openaiCompatibleBaseURL: "http://127.0.0.1:11434/v1", openaiCompatibleModel: "llama3.2" },
    );
    expect(providers.map((provider) => [provider.id, provider.source, provider.defaultModel])).toEqual([
      ["anthropic", "ANTHROPIC_API_KEY", "claude-sonnet-4-5"],
      ["openai", "OPENAI_API_KEY", "gpt-5-mini"],
      ["gemini", "GOOGLE_API_KEY", "gemini-2.5-flash"],
      ["openai-compatible", "setting", "llama3.2"],
      ["offline", "built in, no key needed", "offline-scripted"],
    ]);
    expect(JSON.stringify(providers)).not.toMatch(/sk-ant-x|sk-x|g-x/);
    expect(detectProviders({}, {}).map((provider) => provider.id)).toEqual(["offline"]);
  });
});

// A local endpoint speaking the Chat Completions wire format (streamed chunks), standing in
// for Ollama or vLLM: the real `openai` SDK inside provider-chatcompletions talks to it.
describe("chat through an OpenAI-compatible endpoint", () => {
  let endpoint: Server;
  let base: string;
  let test: TestPlayground;
  const requests: any[] = [];

  const chunk = (delta: unknown, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model: "fake-model", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

  beforeAll(async () => {
    endpoint = createServer(async (request: IncomingMessage, response) => {
      let text = "";
      for await (const part of request) text += part;
      const body = JSON.parse(text);
      requests.push({ path: request.url, authorization: request.headers.authorization, body });
      response.writeHead(200, { "content-type": "text/event-stream" });
      const last = body.messages.at(-1);
      if (last.role === "tool") {
        response.write(chunk({ role: "assistant", content: "The sum " }));
        response.write(chunk({ content: "is 42." }));
        response.write(chunk({}, "stop"));
      } else {
        const sum = body.tools.find((tool: any) => tool.function.name.endsWith("get-sum")).function.name;
        response.write(
          chunk({
            role: "assistant",
            content: null,
            tool_calls: [
              { index: 0, id: "call_a", type: "function", function: { name: sum, arguments: "" } },
            ],
          }),
        );
        response.write(chunk({ tool_calls: [{ index: 0, function: { arguments: '{"a":20,' } }] }));
        response.write(chunk({ tool_calls: [{ index: 0, function: { arguments: '"b":22}' } }] }));
        response.write(chunk({}, "tool_calls"));
      }
      response.end("data: [DONE]\n\n");
    });
    await new Promise<void>((resolve) => endpoint.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/v1`;
    test = await startTestPlayground();
  });

  afterAll(async () => {
    await test.close();
    await new Promise((resolve) => endpoint.close(resolve));
  });

  it("is offered once its URL is set, and runs the tool loop against the default servers", async () => {
    const bad = await test.api("POST", "/api/settings", { openaiCompatibleBaseURL: "javascript:alert(1)" });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("The OpenAI-compatible URL must be http or https.");
    await test.api("POST", "/api/settings", {
      openaiCompatibleBaseURL: base,
      openaiCompatibleModel: "fake-model",
    });
    const state = await test.api("GET", "/api/state");
    expect(state.body.providers.map((provider: any) => provider.id)).toEqual([
      "openai-compatible",
      "offline",
    ]);
    const { body: conversation } = await test.api("POST", "/api/conversations", {
      provider: "openai-compatible",
    });
    const events = await runChatTurn(test, conversation.id, { text: "What is 20 + 22?" });
    expect(events.find((event) => event.type === "tool-call")).toMatchObject({
      name: "everything_get-sum",
      server: "everything",
      input: { a: 20, b: 22 },
    });
    expect(events.find((event) => event.type === "tool-result").result.content).toEqual([
      { type: "text", text: "The sum of 20 and 22 is 42." },
    ]);
    expect(events.at(-1)).toEqual({ type: "finish", reason: "stop", text: "The sum is 42." });
    expect(requests).toHaveLength(2);
    expect(requests[0].path).toBe("/v1/chat/completions");
    expect(requests[0].authorization).toBe("Bearer none");
    expect(requests[0].body.model).toBe("fake-model");
    expect(requests[0].body.messages.at(-1)).toEqual({ role: "user", content: "What is 20 + 22?" });
    expect(requests[1].body.messages.at(-1)).toMatchObject({
      role: "tool",
      tool_call_id: "call_a",
      content: "The sum of 20 and 22 is 42.",
    });
  });
});
