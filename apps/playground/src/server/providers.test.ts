import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import {
  type FakeVendorEndpoint,
  type RecordedRequest,
  sse,
  startFakeVendorEndpoint,
} from "../../test/fake-vendor-endpoint.js";
import { runChatTurn, startTestPlayground, type TestPlayground } from "../../test/test-playground.js";
import { createProvider, detectProviders } from "./providers.js";

describe("detectProviders", () => {
  it("lists a provider per key in the environment, never the key, and always the offline model", () => {
    const providers = detectProviders(
      { ANTHROPIC_API_KEY: "sk-ant-x", OPENAI_API_KEY: "sk-x", GOOGLE_API_KEY: "g-x" },
      { openaiCompatibleBaseURL: "http://127.0.0.1:11434/v1", openaiCompatibleModel: "llama3.2" },
    );
    expect(providers.map((provider) => [provider.id, provider.source, provider.defaultModel])).toEqual([
      ["anthropic", "ANTHROPIC_API_KEY", "claude-sonnet-5-5"],
      ["openai", "OPENAI_API_KEY", "gpt-5-mini"],
      ["gemini", "GOOGLE_API_KEY", "gemini-2.5-flash"],
      ["openai-compatible", "setting", "llama3.2"],
      ["offline", "built in, no key needed", "offline-scripted"],
    ]);
    expect(JSON.stringify(providers)).not.toMatch(/sk-ant-x|sk-x|g-x/);
    expect(detectProviders({}, {}).map((provider) => provider.id)).toEqual(["offline"]);
  });
});

// Every chat test below asks the same question of a local server speaking one vendor's wire
// format, through that vendor's real SDK: the model calls the everything server's get-sum tool,
// then answers with `answer` once the tool result comes back.
const question = "What is 20 + 22?";
const toolOutput = "The sum of 20 and 22 is 42.";
const answer = "The sum is 42.";

/** The vendor-side name of the get-sum tool among the names a request offers (they carry a server prefix). */
const sumToolName = (names: string[]) => names.find((name) => name.endsWith("get-sum")) ?? "no get-sum tool";

async function startEndpoint(
  answerRequest: (request: RecordedRequest) => string[],
): Promise<FakeVendorEndpoint> {
  const endpoint = await startFakeVendorEndpoint(answerRequest);
  onTestFinished(() => endpoint.close());
  return endpoint;
}

async function startPlayground(environment?: NodeJS.ProcessEnv): Promise<TestPlayground> {
  const test = await startTestPlayground({ environment });
  onTestFinished(() => test.close());
  return test;
}

/** /api/state offers `provider` first (then only the offline model), and never shows its key. */
async function expectOfferedFirst(test: TestPlayground, provider: string, key: string): Promise<void> {
  const state = await test.api("GET", "/api/state");
  expect(state.body.providers.map((info: any) => info.id)).toEqual([provider, "offline"]);
  expect(JSON.stringify(state.body)).not.toContain(key);
}

/** Asks `question` in a new conversation with `provider`: one get-sum call on the everything server, then `answer`. */
async function expectSumTurn(test: TestPlayground, provider: string): Promise<void> {
  const { body: conversation } = await test.api("POST", "/api/conversations", { provider });
  const events = await runChatTurn(test, conversation.id, { text: question });
  expect(events.at(-1)).toEqual({ type: "finish", reason: "stop", text: answer });
  expect(events.filter((event) => event.type === "tool-call")).toMatchObject([
    { name: "everything_get-sum", server: "everything", input: { a: 20, b: 22 } },
  ]);
  expect(events.filter((event) => event.type === "tool-result")).toMatchObject([
    { name: "everything_get-sum", result: { content: [{ type: "text", text: toolOutput }] } },
  ]);
}

/**
 * Anthropic Messages SSE (`event:` named as the data's type): a get-sum `tool_use` whose input
 * comes in two `input_json_delta`s, or, once the last user message holds a `tool_result`, the answer.
 */
function anthropicMessages({ body }: RecordedRequest): string[] {
  const last = body.messages.at(-1);
  const answering =
    Array.isArray(last.content) && last.content.some((block: any) => block.type === "tool_result");
  const block = answering
    ? { type: "text", text: "" }
    : {
        type: "tool_use",
        id: "toolu_sum",
        name: sumToolName(body.tools.map((tool: any) => tool.name)),
        input: {},
      };
  const deltas = answering
    ? [
        { type: "text_delta", text: "The sum " },
        { type: "text_delta", text: "is 42." },
      ]
    : [
        { type: "input_json_delta", partial_json: '{"a":20,' },
        { type: "input_json_delta", partial_json: '"b":22}' },
      ];
  const message = { id: "msg_1", type: "message", role: "assistant", model: body.model, content: [] };
  const usage = { input_tokens: 30, output_tokens: 1 };
  return [
    { type: "message_start", message: { ...message, stop_reason: null, usage } },
    { type: "content_block_start", index: 0, content_block: block },
    ...deltas.map((delta) => ({ type: "content_block_delta", index: 0, delta })),
    { type: "content_block_stop", index: 0 },
    {
      type: "message_delta",
      delta: { stop_reason: answering ? "end_turn" : "tool_use", stop_sequence: null },
      usage: { output_tokens: 12 },
    },
    { type: "message_stop" },
  ].map((data) => sse(data, data.type));
}

/**
 * OpenAI Responses SSE: a get-sum `function_call` item whose arguments come in two deltas, or,
 * once the input holds a `function_call_output`, a message item with the answer.
 */
function openAIResponses({ body }: RecordedRequest): string[] {
  const answering = body.input.some((item: any) => item.type === "function_call_output");
  const response = (status: string, output: unknown[]) => ({
    id: "resp_1",
    object: "response",
    created_at: 1,
    status,
    model: body.model,
    output,
    usage: status === "completed" ? { input_tokens: 30, output_tokens: 12, total_tokens: 42 } : null,
  });
  const item = answering
    ? {
        id: "msg_1",
        type: "message",
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text: answer, annotations: [] }],
      }
    : {
        id: "fc_1",
        type: "function_call",
        status: "completed",
        call_id: "call_sum",
        name: sumToolName(body.tools.map((tool: any) => tool.name)),
        arguments: '{"a":20,"b":22}',
      };
  const itemAdded = answering
    ? { ...item, status: "in_progress", content: [] }
    : { ...item, status: "in_progress", arguments: "" };
  const deltas = answering
    ? ["The sum ", "is 42."].map((delta) => ({
        type: "response.output_text.delta",
        output_index: 0,
        item_id: item.id,
        content_index: 0,
        delta,
      }))
    : [
        ...['{"a":20,', '"b":22}'].map((delta) => ({
          type: "response.function_call_arguments.delta",
          output_index: 0,
          item_id: item.id,
          delta,
        })),
        {
          type: "response.function_call_arguments.done",
          output_index: 0,
          item_id: item.id,
          arguments: '{"a":20,"b":22}',
        },
      ];
  return [
    { type: "response.created", response: response("in_progress", []) },
    { type: "response.output_item.added", output_index: 0, item: itemAdded },
    ...deltas,
    { type: "response.output_item.done", output_index: 0, item },
    { type: "response.completed", response: response("completed", [item]) },
  ].map((data, index) => sse({ ...data, sequence_number: index }, data.type));
}

/**
 * Gemini `streamGenerateContent?alt=sse` (unnamed `data:` frames): one chunk with a whole get-sum
 * `functionCall`, or, once the last content holds a `functionResponse`, the answer in two chunks.
 */
function geminiStream({ body }: RecordedRequest): string[] {
  const answering = body.contents.at(-1).parts.some((part: any) => part.functionResponse);
  const chunk = (parts: unknown[], finishReason?: string) =>
    sse({
      candidates: [
        { content: { role: "model", parts }, index: 0, ...(finishReason ? { finishReason } : {}) },
      ],
      modelVersion: "gemini-2.5-flash",
      responseId: "gemini-response",
    });
  if (answering) return [chunk([{ text: "The sum " }]), chunk([{ text: "is 42." }], "STOP")];
  const name = sumToolName(body.tools[0].functionDeclarations.map((declaration: any) => declaration.name));
  return [chunk([{ functionCall: { name, args: { a: 20, b: 22 } } }], "STOP")];
}

describe("chat through each vendor's API, at a base URL from the playground's environment", () => {
  it("Anthropic: Messages API at ANTHROPIC_BASE_URL, the key as a bearer token, the tool result as a tool_result block", async () => {
    const endpoint = await startEndpoint(anthropicMessages);
    const test = await startPlayground({
      ANTHROPIC_API_KEY: "sk-ant-test",
      ANTHROPIC_BASE_URL: endpoint.url,
    });
    await expectOfferedFirst(test, "anthropic", "sk-ant-test");
    await expectSumTurn(test, "anthropic");

    expect(endpoint.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      "POST /v1/messages",
      "POST /v1/messages",
    ]);
    // @anthropic-ai/sdk 1.x sends an API key as a bearer token, no longer as x-api-key.
    expect(endpoint.requests.map((request) => request.headers.authorization)).toEqual([
      "Bearer sk-ant-test",
      "Bearer sk-ant-test",
    ]);
    expect(endpoint.requests.map((request) => request.headers["x-api-key"])).toEqual([undefined, undefined]);
    const [first, second] = endpoint.requests;
    expect(first!.body).toMatchObject({
      model: "claude-sonnet-5-5",
      stream: true,
      messages: [{ role: "user", content: question }],
    });
    expect(first!.body.tools.map((tool: any) => tool.name)).toContain("everything_get-sum");
    expect(second!.body.model).toBe("claude-sonnet-5-5");
    expect(second!.body.messages.slice(-2)).toEqual([
      {
        role: "assistant",
        content: [{ type: "tool_use", id: "toolu_sum", name: "everything_get-sum", input: { a: 20, b: 22 } }],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_sum", content: [{ type: "text", text: toolOutput }] },
        ],
      },
    ]);
  });

  it("OpenAI: Responses API at OPENAI_BASE_URL, the key as a bearer token, the tool result as a function_call_output", async () => {
    const endpoint = await startEndpoint(openAIResponses);
    const test = await startPlayground({
      OPENAI_API_KEY: "sk-openai-test",
      OPENAI_BASE_URL: `${endpoint.url}/v1`,
    });
    await expectOfferedFirst(test, "openai", "sk-openai-test");
    await expectSumTurn(test, "openai");

    expect(endpoint.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      "POST /v1/responses",
      "POST /v1/responses",
    ]);
    expect(endpoint.requests.map((request) => request.headers.authorization)).toEqual([
      "Bearer sk-openai-test",
      "Bearer sk-openai-test",
    ]);
    const [first, second] = endpoint.requests;
    expect(first!.body).toMatchObject({
      model: "gpt-5-mini",
      stream: true,
      input: [{ role: "user", content: question }],
    });
    expect(first!.body.tools.map((tool: any) => tool.name)).toContain("everything_get-sum");
    expect(second!.body.model).toBe("gpt-5-mini");
    expect(second!.body.input.slice(-2)).toMatchObject([
      {
        type: "function_call",
        call_id: "call_sum",
        name: "everything_get-sum",
        arguments: '{"a":20,"b":22}',
      },
      {
        type: "function_call_output",
        call_id: "call_sum",
        output: [{ type: "input_text", text: toolOutput }],
      },
    ]);
  });

  it("Gemini: streamGenerateContent at GEMINI_BASE_URL, the key in x-goog-api-key, the tool result as a functionResponse", async () => {
    const endpoint = await startEndpoint(geminiStream);
    const test = await startPlayground({ GEMINI_API_KEY: "g-test-key", GEMINI_BASE_URL: endpoint.url });
    await expectOfferedFirst(test, "gemini", "g-test-key");
    await expectSumTurn(test, "gemini");

    // The model is in the path; the API version is @google/genai's default (v1 since 3.x).
    const path = "/v1/models/gemini-2.5-flash:streamGenerateContent?alt=sse";
    expect(endpoint.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      `POST ${path}`,
      `POST ${path}`,
    ]);
    expect(endpoint.requests.map((request) => request.headers["x-goog-api-key"])).toEqual([
      "g-test-key",
      "g-test-key",
    ]);
    const [first, second] = endpoint.requests;
    expect(first!.body.contents).toEqual([{ role: "user", parts: [{ text: question }] }]);
    expect(first!.body.tools[0].functionDeclarations.map((declaration: any) => declaration.name)).toContain(
      "everything_get-sum",
    );
    expect(second!.body.contents.slice(-2)).toMatchObject([
      { role: "model", parts: [{ functionCall: { name: "everything_get-sum", args: { a: 20, b: 22 } } }] },
      {
        role: "user",
        parts: [{ functionResponse: { name: "everything_get-sum", response: { output: toolOutput } } }],
      },
    ]);
  });

  it("Gemini takes its base URL from GOOGLE_GEMINI_BASE_URL when GEMINI_BASE_URL is not set", async () => {
    const endpoint = await startEndpoint(() => [
      sse({
        candidates: [{ content: { role: "model", parts: [{ text: "Hello." }] }, finishReason: "STOP" }],
      }),
    ]);
    const provider = await createProvider("gemini", {
      environment: { GEMINI_API_KEY: "g-test-key", GOOGLE_GEMINI_BASE_URL: endpoint.url },
      settings: {},
      sandbox: "",
    });
    const events = [];
    for await (const event of provider.stream({
      model: "gemini-2.5-flash",
      messages: [{ role: "user", content: "Hi" }],
    }))
      events.push(event);
    expect(events[0]).toEqual({ type: "text-delta", text: "Hello." });
    expect(endpoint.requests.map((request) => request.path)).toEqual([
      "/v1/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
    ]);
  });
});

// A local endpoint speaking the Chat Completions wire format (streamed chunks), standing in
// for Ollama or vLLM: the real `openai` SDK inside provider-chatcompletions talks to it.
describe("chat through an OpenAI-compatible endpoint", () => {
  /** Chat Completions SSE: a get-sum call in `tool_calls` deltas, or, after a `tool` message, the answer. */
  function chatCompletions({ body }: RecordedRequest): string[] {
    const chunk = (delta: unknown, finish: string | null = null) =>
      sse({
        id: "chatcmpl-1",
        object: "chat.completion.chunk",
        created: 1,
        model: "fake-model",
        choices: [{ index: 0, delta, finish_reason: finish }],
      });
    if (body.messages.at(-1).role === "tool") {
      return [
        chunk({ role: "assistant", content: "The sum " }),
        chunk({ content: "is 42." }),
        chunk({}, "stop"),
        "data: [DONE]\n\n",
      ];
    }
    const name = sumToolName(body.tools.map((tool: any) => tool.function.name));
    return [
      chunk({
        role: "assistant",
        content: null,
        tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name, arguments: "" } }],
      }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"a":20,' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '"b":22}' } }] }),
      chunk({}, "tool_calls"),
      "data: [DONE]\n\n",
    ];
  }

  it("is offered once its URL is set, and runs the tool loop against the default servers", async () => {
    const endpoint = await startEndpoint(chatCompletions);
    const test = await startPlayground();
    const bad = await test.api("POST", "/api/settings", { openaiCompatibleBaseURL: "javascript:alert(1)" });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("The OpenAI-compatible URL must be http or https.");
    await test.api("POST", "/api/settings", {
      openaiCompatibleBaseURL: `${endpoint.url}/v1`,
      openaiCompatibleModel: "fake-model",
    });
    const state = await test.api("GET", "/api/state");
    expect(state.body.providers.map((provider: any) => provider.id)).toEqual([
      "openai-compatible",
      "offline",
    ]);
    await expectSumTurn(test, "openai-compatible");

    const { requests } = endpoint;
    expect(requests).toHaveLength(2);
    expect(requests[0]!.path).toBe("/v1/chat/completions");
    expect(requests[0]!.headers.authorization).toBe("Bearer none");
    expect(requests[0]!.body.model).toBe("fake-model");
    expect(requests[0]!.body.messages.at(-1)).toEqual({ role: "user", content: question });
    expect(requests[1]!.body.messages.at(-1)).toMatchObject({
      role: "tool",
      tool_call_id: "call_a",
      content: toolOutput,
    });
  });
});

// Amazon Bedrock: the real AWS SDK inside provider-bedrock (SigV4 over HTTP/2) against the Bedrock
// runtime fake of @junction/wire-fake, which answers ConverseStream with AWS event-stream frames
// built by the SDK's own codec.
describe("chat through Amazon Bedrock, at BEDROCK_BASE_URL", () => {
  interface BedrockFake {
    url: string;
    requests: RecordedRequest[];
    enqueue(...replies: ((request: RecordedRequest) => { frames: unknown[] })[]): void;
    close(): Promise<void>;
  }

  /**
   * Starts the fake. The playground does not depend on @junction/wire-fake, so it is reached
   * through @junction/provider-bedrock, which has it as a dev dependency.
   */
  async function startBedrockFake(): Promise<BedrockFake> {
    const fromPlayground = createRequire(import.meta.url);
    const fromBedrock = createRequire(fromPlayground.resolve("@junction/provider-bedrock/package.json"));
    const module = await import(pathToFileURL(fromBedrock.resolve("@junction/wire-fake/bedrock")).href);
    const fake: BedrockFake = await module.startBedrockFake();
    onTestFinished(() => fake.close());
    return fake;
  }

  const event = (type: string, payload: unknown) => ({ kind: "event", type, payload });

  /** ConverseStream: a get-sum `toolUse` with its input in two pieces, or, after a `toolResult`, the answer. */
  function converseStream({ body }: RecordedRequest): { frames: unknown[] } {
    const answering = body.messages.at(-1).content.some((block: any) => block.toolResult);
    const name = sumToolName(body.toolConfig.tools.map((tool: any) => tool.toolSpec.name));
    const blocks = answering
      ? ["The sum ", "is 42."].map((text) =>
          event("contentBlockDelta", { contentBlockIndex: 0, delta: { text } }),
        )
      : [
          event("contentBlockStart", {
            contentBlockIndex: 0,
            start: { toolUse: { toolUseId: "tooluse_sum", name } },
          }),
          ...['{"a":20,', '"b":22}'].map((input) =>
            event("contentBlockDelta", { contentBlockIndex: 0, delta: { toolUse: { input } } }),
          ),
        ];
    return {
      frames: [
        event("messageStart", { role: "assistant" }),
        ...blocks,
        event("contentBlockStop", { contentBlockIndex: 0 }),
        event("messageStop", { stopReason: answering ? "end_turn" : "tool_use" }),
        event("metadata", {
          usage: { inputTokens: 30, outputTokens: 12, totalTokens: 42 },
          metrics: { latencyMs: 5 },
        }),
      ],
    };
  }

  it("is offered with AWS credentials in the environment, signs with them, and sends the tool result as a toolResult block", async () => {
    const fake = await startBedrockFake();
    fake.enqueue(converseStream, converseStream);
    const test = await startPlayground({
      AWS_ACCESS_KEY_ID: "AKIDPLAYGROUNDTEST",
      AWS_SECRET_ACCESS_KEY: "playground-secret-key",
      AWS_DEFAULT_REGION: "eu-central-1",
      BEDROCK_BASE_URL: fake.url,
    });
    await expectOfferedFirst(test, "bedrock", "playground-secret-key");
    await expectSumTurn(test, "bedrock");

    const path = `/model/${encodeURIComponent("us.amazon.nova-pro-v1:0")}/converse-stream`;
    expect(fake.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      `POST ${path}`,
      `POST ${path}`,
    ]);
    for (const request of fake.requests) {
      expect(request.headers.authorization).toMatch(
        /^AWS4-HMAC-SHA256 Credential=AKIDPLAYGROUNDTEST\/\d{8}\/eu-central-1\/bedrock\/aws4_request, /,
      );
    }
    const [first, second] = fake.requests;
    expect(first!.body.messages).toEqual([{ role: "user", content: [{ text: question }] }]);
    expect(first!.body.toolConfig.tools.map((tool: any) => tool.toolSpec.name)).toContain(
      "everything_get-sum",
    );
    expect(second!.body.messages.slice(-2)).toEqual([
      {
        role: "assistant",
        content: [
          { toolUse: { toolUseId: "tooluse_sum", name: "everything_get-sum", input: { a: 20, b: 22 } } },
        ],
      },
      {
        role: "user",
        content: [{ toolResult: { toolUseId: "tooluse_sum", content: [{ text: toolOutput }] } }],
      },
    ]);
  });

  it("is offered for AWS_PROFILE or AWS_BEARER_TOKEN_BEDROCK, and not for half a key pair", () => {
    const offered = (environment: NodeJS.ProcessEnv) =>
      detectProviders(environment, {}).map((provider) => [provider.id, provider.source]);
    expect(offered({ AWS_PROFILE: "dev" })).toEqual([
      ["bedrock", "AWS_PROFILE"],
      ["offline", "built in, no key needed"],
    ]);
    expect(offered({ AWS_BEARER_TOKEN_BEDROCK: "bedrock-key" })).toEqual([
      ["bedrock", "AWS_BEARER_TOKEN_BEDROCK"],
      ["offline", "built in, no key needed"],
    ]);
    expect(offered({ AWS_ACCESS_KEY_ID: "AKID" })).toEqual([["offline", "built in, no key needed"]]);
  });
});
