import type { Message, ModelStreamEvent } from "@junction/types";
import { readSSEFixture, startWireFake, type WireFake } from "@junction/wire-fake";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openai } from "./openai-provider.js";

// The real `openai` SDK against a local server replaying the Responses API wire format.

const fixture = (name: string) => readSSEFixture(new URL(`./__fixtures__/${name}`, import.meta.url));

async function collect(stream: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

let fake: WireFake;
beforeEach(async () => {
  fake = await startWireFake();
});
afterEach(async () => {
  await fake.close();
});

const provider = () => openai({ apiKey: "sk-test", baseURL: `${fake.url}/v1`, maxRetries: 0 });

const APPROVAL_ID = "mcpr_04a97b4fce127879006949a83ac9308195a7f7b69ea82e91fe";
const APPROVAL_ARGUMENTS =
  '{"alias":"","description":"Shortened link for ai-sdk.dev","max_clicks":100,"password":"","url":"https://ai-sdk.dev/"}';
const mcpTool = {
  type: "mcp",
  server_label: "zip1",
  server_url: "https://zip1.io/mcp",
  require_approval: "always",
};

describe("reasoning text from compatible servers (LM Studio)", () => {
  it("streams response.reasoning_text as reasoning deltas and echoes it as reasoning_text content", async () => {
    fake.enqueue(
      { chunks: fixture("openai-reasoning-text.sse.txt") },
      { chunks: fixture("openai-text.sse.txt") },
    );
    const messages: Message[] = [{ role: "user", content: "What is 17 * 3?" }];
    const events = await collect(provider().stream({ model: "openai/gpt-oss-20b", messages }));

    const reasoningPart = (text: string) => ({
      type: "reasoning",
      text,
      providerMetadata: { openai: { itemId: "rs_lmstudio_01", reasoningText: true } },
    });
    expect(events).toEqual([
      { type: "reasoning-delta", text: "The user asks " },
      { type: "reasoning-delta", text: "for 17 * 3. " },
      { type: "reasoning-delta", text: "17 * 3 = 51." },
      // The second content part came only as its done event: streamed whole, as a new paragraph.
      { type: "reasoning-delta", text: "\n\n" },
      { type: "reasoning-delta", text: "Answer with the number only." },
      { type: "text-delta", text: "51" },
      {
        type: "finish",
        reason: "stop",
        rawReason: "completed",
        usage: {
          inputTokens: 20,
          outputTokens: 31,
          totalTokens: 51,
          cachedInputTokens: 0,
          reasoningTokens: 29,
        },
        content: [
          reasoningPart("The user asks for 17 * 3. 17 * 3 = 51."),
          reasoningPart("Answer with the number only."),
          { type: "text", text: "51", providerMetadata: { openai: { itemId: "msg_lmstudio_01" } } },
        ],
        responseId: "resp_lmstudio_reasoning_01",
      },
    ]);

    const finish = events.at(-1)!;
    messages.push(
      { role: "assistant", content: finish.type === "finish" ? finish.content : [] },
      { role: "user", content: "And 17 * 4?" },
    );
    await collect(provider().stream({ model: "openai/gpt-oss-20b", messages }));
    expect(fake.requests[1]!.body.input).toEqual([
      { role: "user", content: "What is 17 * 3?" },
      {
        type: "reasoning",
        id: "rs_lmstudio_01",
        summary: [],
        content: [
          { type: "reasoning_text", text: "The user asks for 17 * 3. 17 * 3 = 51." },
          { type: "reasoning_text", text: "Answer with the number only." },
        ],
      },
      {
        type: "message",
        role: "assistant",
        id: "msg_lmstudio_01",
        status: "completed",
        content: [{ type: "output_text", text: "51", annotations: [] }],
      },
      { role: "user", content: "And 17 * 4?" },
    ]);
  });
});

describe("hosted MCP approval requests", () => {
  it("keeps an mcp_approval_request in the turn with a warning that says how to answer, and runs nothing", async () => {
    fake.enqueue({ chunks: fixture("openai-mcp-approval-request.sse.txt") });
    const events = await collect(
      provider().stream({
        model: "gpt-5-mini",
        messages: [{ role: "user", content: "Shorten https://ai-sdk.dev/" }],
        providerOptions: { openai: { tools: [mcpTool] } },
      }),
    );
    // A hosted tool given as a provider option is sent as is.
    expect(fake.requests[0]!.body.tools).toEqual([mcpTool]);

    expect(events.filter((event) => event.type === "warning").map((event) => event.warning)).toEqual([
      {
        code: "output-item-unsupported",
        message:
          'OpenAI returned an output item of type "mcp_list_tools", which Junction does not carry; it is left out of the turn.',
      },
      {
        code: "mcp-approval-requested",
        message: `OpenAI's hosted MCP server "zip1" asks for approval to run its tool "create_short_url" with arguments ${JSON.stringify(APPROVAL_ARGUMENTS).slice(0, 120)}… (approval request ${APPROVAL_ID}). Junction never approves it on its own: the request is kept in the turn's content (providerMetadata.openai.mcpApprovalRequest). To answer, set providerMetadata.openai.mcpApprovalResponse to { approve: true } or { approve: false, reason } on that part and send the conversation again; it goes to OpenAI as an mcp_approval_response item.`,
      },
    ]);
    expect(events.some((event) => event.type.startsWith("tool-call"))).toBe(false);
    expect(events.at(-1)).toEqual({
      type: "finish",
      reason: "stop",
      rawReason: "completed",
      usage: {
        inputTokens: 422,
        outputTokens: 48,
        totalTokens: 470,
        cachedInputTokens: 0,
        reasoningTokens: 0,
      },
      content: [
        {
          type: "reasoning",
          text: "",
          providerMetadata: { openai: { itemId: "rs_04a97b4fce127879006949a83904c88195977de6cc3f06064a" } },
        },
        {
          type: "text",
          text: "",
          providerMetadata: {
            openai: {
              mcpApprovalRequest: {
                id: APPROVAL_ID,
                serverLabel: "zip1",
                name: "create_short_url",
                arguments: APPROVAL_ARGUMENTS,
              },
            },
          },
        },
      ],
      responseId: "resp_04a97b4fce127879006949a837a3a48195b37f26ae73f550c0",
    });
  });

  it("sends the request and an mcp_approval_response once the caller answers, and leaves an unanswered one out", async () => {
    fake.enqueue(
      { chunks: fixture("openai-mcp-approval-request.sse.txt") },
      { chunks: fixture("openai-text.sse.txt") },
      { chunks: fixture("openai-text.sse.txt") },
    );
    const messages: Message[] = [{ role: "user", content: "Shorten https://ai-sdk.dev/" }];
    const first = await collect(provider().stream({ model: "gpt-5-mini", messages }));
    const finish = first.at(-1)!;
    if (finish.type !== "finish") throw new Error("no finish event");
    messages.push({ role: "assistant", content: finish.content });

    // Not answered: the next request leaves the approval request out and says so.
    const unanswered = await collect(provider().stream({ model: "gpt-5-mini", messages }));
    expect(unanswered.filter((event) => event.type === "warning")).toEqual([
      {
        type: "warning",
        warning: {
          code: "mcp-approval-unanswered",
          message: `Message 1: the hosted MCP approval request ${APPROVAL_ID} ("create_short_url" on "zip1") has no answer (providerMetadata.openai.mcpApprovalResponse), so it is left out and the tool does not run.`,
        },
      },
    ]);
    const reasoningItem = {
      type: "reasoning",
      id: "rs_04a97b4fce127879006949a83904c88195977de6cc3f06064a",
      summary: [],
    };
    expect(fake.requests[1]!.body.input).toEqual([
      { role: "user", content: "Shorten https://ai-sdk.dev/" },
      reasoningItem,
    ]);

    // Denied, with a reason: the request and the answer go back as the API documents them.
    const approvalPart = finish.content[1]!;
    approvalPart.providerMetadata!.openai!.mcpApprovalResponse = {
      approve: false,
      reason: "Not this link.",
    };
    const answered = await collect(provider().stream({ model: "gpt-5-mini", messages }));
    expect(answered.filter((event) => event.type === "warning")).toEqual([]);
    expect(fake.requests[2]!.body.input).toEqual([
      { role: "user", content: "Shorten https://ai-sdk.dev/" },
      reasoningItem,
      {
        type: "mcp_approval_request",
        id: APPROVAL_ID,
        server_label: "zip1",
        name: "create_short_url",
        arguments: APPROVAL_ARGUMENTS,
      },
      {
        type: "mcp_approval_response",
        approval_request_id: APPROVAL_ID,
        approve: false,
        reason: "Not this link.",
      },
    ]);

    // Once the model has answered, the approval is history: it is not sent again, so the
    // hosted tool cannot run a second time.
    const reply = answered.at(-1)!;
    messages.push(
      { role: "assistant", content: reply.type === "finish" ? reply.content : [] },
      { role: "user", content: "Thanks." },
    );
    fake.enqueue({ chunks: fixture("openai-text.sse.txt") });
    const later = await collect(provider().stream({ model: "gpt-5-mini", messages }));
    expect(later.filter((event) => event.type === "warning")).toEqual([]);
    expect(fake.requests[3]!.body.input).toEqual([
      { role: "user", content: "Shorten https://ai-sdk.dev/" },
      reasoningItem,
      {
        type: "message",
        role: "assistant",
        id: "msg_sanitized_streaming",
        status: "completed",
        content: [{ type: "output_text", text: "OK", annotations: [] }],
      },
      { role: "user", content: "Thanks." },
    ]);
  });
});
