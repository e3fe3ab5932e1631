// The playground's tool search with a vendor's embeddings: with OPENAI_API_KEY set, a deferred
// server's tools are embedded through OpenAI's /v1/embeddings (a local fake speaking its wire
// format, the real SDK as the client), the vectors kept in the playground's SQLite store, so a
// later turn (a new Agent) embeds only its query.
import { type RecordedRequest, startWireFake, type WireFake } from "@junction/wire-fake";
import { openAIEmbeddings } from "@junction/wire-fake/embeddings";
import { describe, expect, it, onTestFinished } from "vitest";
import { sse } from "../../test/fake-vendor-endpoint.js";
import { runChatTurn, startTestPlayground } from "../../test/test-playground.js";

/** A vector that makes "sum" and "add" meet: the search's dense side has something to find. */
const vectorOf = (text: string) => [(text.match(/\b(sum|add|adds|numbers?)\b/gi) ?? []).length, 0.1];

/**
 * The Responses API as a scripted model: the first request searches, the second calls the sum
 * tool the search loaded, the third answers (counted by the function outputs the input holds).
 */
function responses({ body }: RecordedRequest): string[] {
  const outputs = body.input.filter((item: any) => item.type === "function_call_output").length;
  const call = (name: string, input: unknown) => ({
    id: `fc_${outputs}`,
    type: "function_call",
    status: "completed",
    call_id: `call_${outputs}`,
    name,
    arguments: JSON.stringify(input),
  });
  const item =
    outputs === 0
      ? call("search_tools", { query: "add two numbers" })
      : outputs === 1
        ? call("everything_get-sum", { a: 20, b: 22 })
        : {
            id: "msg_1",
            type: "message",
            role: "assistant",
            status: "completed",
            content: [{ type: "output_text", text: "42.", annotations: [] }],
          };
  const response = (status: string, output: unknown[]) => ({
    id: `resp_${outputs}`,
    object: "response",
    created_at: 1,
    status,
    model: body.model,
    output,
    usage: status === "completed" ? { input_tokens: 30, output_tokens: 12, total_tokens: 42 } : null,
  });
  return [
    { type: "response.created", response: response("in_progress", []) },
    { type: "response.output_item.added", output_index: 0, item },
    { type: "response.output_item.done", output_index: 0, item },
    { type: "response.completed", response: response("completed", [item]) },
  ].map((data, index) => sse({ ...data, sequence_number: index }, data.type));
}

async function startOpenAIFake(): Promise<WireFake> {
  const embeddings = openAIEmbeddings(vectorOf);
  const fake = await startWireFake({
    fallback: (request) =>
      request.path === "/v1/embeddings" ? embeddings(request) : { chunks: responses(request) },
  });
  onTestFinished(() => fake.close());
  return fake;
}

describe("tool search with the vendor's embeddings, vectors kept in the store", () => {
  it("embeds a deferred server's tools once, through OpenAI's embeddings API, and keeps them across turns", async () => {
    const fake = await startOpenAIFake();
    const test = await startTestPlayground({
      environment: { OPENAI_API_KEY: "sk-openai-test", OPENAI_BASE_URL: `${fake.url}/v1` },
    });
    onTestFinished(() => test.close());
    const everything = test.playground.store.listServers().find((server) => server.name === "everything")!;
    expect(
      (await test.api("PUT", `/api/servers/${everything.id}/defer-tools`, { deferTools: true })).status,
    ).toBe(200);

    const turn = async () => {
      const { body: conversation } = await test.api("POST", "/api/conversations", { provider: "openai" });
      return runChatTurn(test, conversation.id, { text: "What is 20 + 22?" });
    };
    const first = await turn();
    expect(first.at(-1)).toEqual({ type: "finish", reason: "stop", text: "42." });
    expect(first.filter((event) => event.type === "tool-result").map((event) => event.name)).toEqual([
      "search_tools",
      "everything_get-sum",
    ]);

    const embedRequests = () => fake.requests.filter((request) => request.path === "/v1/embeddings");
    // The request's vector is asked for beside the tools' (two requests in flight): either may come first.
    expect(embedRequests()).toHaveLength(2);
    const isQuery = (request: { body: { input: string[] } }) =>
      request.body.input.length === 1 && request.body.input[0] === "add two numbers";
    const query = embedRequests().find(isQuery);
    const tools = embedRequests().find((request) => !isQuery(request));
    expect(tools!.headers.authorization).toBe("Bearer sk-openai-test");
    expect(tools!.body.model).toBe("text-embedding-3-small");
    const toolCount = tools!.body.input.length;
    expect(toolCount).toBeGreaterThan(5);
    expect(tools!.body.input).toContainEqual(expect.stringMatching(/^everything get sum\n/));
    expect(query).toBeDefined();
    expect(test.playground.store.countEmbeddings("openai:text-embedding-3-small")).toBe(toolCount);

    // A new turn is a new Agent: the tools' vectors come from the store, only the query is embedded.
    const second = await turn();
    expect(second.at(-1)).toEqual({ type: "finish", reason: "stop", text: "42." });
    expect(
      embedRequests()
        .slice(2)
        .map((request) => request.body.input),
    ).toEqual([["add two numbers"]]);
    expect(test.playground.store.countEmbeddings("openai:text-embedding-3-small")).toBe(toolCount);
  });

  it("without a vendor key there is no embedder: the offline model's search stays lexical", async () => {
    const { createEmbedder } = await import("./providers.js");
    expect(await createEmbedder({})).toBeUndefined();
    expect(await createEmbedder({ ANTHROPIC_API_KEY: "sk-ant" })).toBeUndefined();
    expect((await createEmbedder({ GEMINI_API_KEY: "g", AWS_PROFILE: "p" }))?.model).toBe(
      "gemini:gemini-embedding-001",
    );
    expect((await createEmbedder({ AWS_PROFILE: "p" }))?.model).toBe("bedrock:amazon.titan-embed-text-v2:0");
    expect((await createEmbedder({ OPENAI_API_KEY: "sk", GEMINI_API_KEY: "g" }))?.model).toBe(
      "openai:text-embedding-3-small",
    );
  });
});
