// A full conversation: an Agent (@junction/core) with @modelcontextprotocol/server-everything over
// stdio (@junction/mcp-client), and the Chat Completions provider's real `openai` SDK talking to a
// local wire fake. The fake model asks for get-tiny-image; the next request must carry the image
// the way Chat Completions can: the tool message with the text, then a user message with the
// image as an image_url data URL.
import { Agent } from "@junction/core";
import { chatCompletions } from "@junction/provider-chatcompletions";
import { startWireFake } from "@junction/wire-fake";
import { describe, expect, it } from "vitest";
import { useEverythingWithWireFake } from "./support/everything-with-wire-fake.js";

const sse = (...chunks: unknown[]) => [
  ...chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`),
  "data: [DONE]\n\n",
];
const chunk = (
  id: string,
  delta: object,
  { finish = null, usage }: { finish?: string | null; usage?: object } = {},
) => ({
  id,
  object: "chat.completion.chunk",
  created: 1785332890,
  model: "qwen3",
  choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  ...(usage ? { usage } : {}),
});

const context = useEverythingWithWireFake(startWireFake);

describe("Chat Completions conversation with server-everything", () => {
  it("runs get-tiny-image and sends the image in a user message after the tool message", async () => {
    const { fake, everything } = context;
    fake.enqueue(
      {
        chunks: sse(
          chunk("chatcmpl-1", { role: "assistant", content: null }),
          chunk("chatcmpl-1", {
            tool_calls: [
              {
                index: 0,
                id: "call_img",
                type: "function",
                function: { name: "get-tiny-image", arguments: "" },
              },
            ],
          }),
          chunk("chatcmpl-1", { tool_calls: [{ index: 0, function: { arguments: "{}" } }] }),
          chunk("chatcmpl-1", {}, { finish: "tool_calls" }),
          chunk(
            "chatcmpl-1",
            {},
            { usage: { prompt_tokens: 900, completion_tokens: 12, total_tokens: 912 } },
          ),
        ),
      },
      {
        chunks: sse(
          chunk("chatcmpl-2", { role: "assistant", content: "It is the MCP logo." }),
          chunk("chatcmpl-2", {}, { finish: "stop" }),
          {
            ...chunk("chatcmpl-2", {}),
            choices: [],
            usage: { prompt_tokens: 1000, completion_tokens: 6, total_tokens: 1006 },
          },
        ),
      },
    );

    const agent = new Agent({
      provider: chatCompletions({ baseURL: `${fake.url}/v1`, maxRetries: 0 }),
      model: "qwen3",
      system: "You can look at images.",
      mcps: [everything],
    });
    const handle = agent.send("Show me the tiny image and tell me what it is.");
    const events = [];
    for await (const event of handle) events.push(event);
    const result = await handle.final;

    expect(result.text).toBe("It is the MCP logo.");
    expect(fake.requests).toHaveLength(2);

    const toolResult = events.find((event) => event.type === "tool-result");
    expect(toolResult).toMatchObject({ type: "tool-result", id: "call_img", name: "get-tiny-image" });
    const image = (
      toolResult as { result: { content: { type: string; data?: string }[] } }
    ).result.content.find((part) => part.type === "image");
    expect(image?.data).toMatch(/^iVBORw0KGgo/);

    const first = fake.requests[0]!.body;
    const definitions = await everything.listToolDefinitions();
    expect(first).toEqual({
      model: "qwen3",
      messages: [
        { role: "system", content: "You can look at images." },
        { role: "user", content: "Show me the tiny image and tell me what it is." },
      ],
      stream: true,
      stream_options: { include_usage: true },
      tools: expect.any(Array),
    });
    expect(first.tools).toHaveLength(definitions.length);
    expect(first.tools).toContainEqual({
      type: "function",
      function: {
        name: "get-tiny-image",
        description: "Returns a tiny MCP logo image.",
        parameters: { type: "object", properties: {} },
      },
    });

    const second = fake.requests[1]!.body;
    expect(second.tools).toEqual(first.tools);
    expect(second.messages).toEqual([
      { role: "system", content: "You can look at images." },
      { role: "user", content: "Show me the tiny image and tell me what it is." },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_img", type: "function", function: { name: "get-tiny-image", arguments: "{}" } },
        ],
      },
      {
        role: "tool",
        tool_call_id: "call_img",
        content: [
          "Here's the image you requested:",
          "[image (image/png) attached in the following user message]",
          "The image above is the MCP logo.",
        ].join("\n"),
      },
      {
        role: "user",
        content: [
          { type: "text", text: "Attachments from the result of tool call call_img (get-tiny-image):" },
          { type: "image_url", image_url: { url: `data:image/png;base64,${image!.data}` } },
        ],
      },
    ]);
    expect(result.warnings.map((warning) => warning.code)).toContain("tool-result-image-unsupported");
    expect(result.usage).toMatchObject({ inputTokens: 1900, outputTokens: 18 });
  });
});
