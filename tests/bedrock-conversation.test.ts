// A full conversation: an Agent (@junction/core) with @modelcontextprotocol/server-everything over
// stdio (@junction/mcp-client), and the Bedrock provider's real `@aws-sdk/client-bedrock-runtime`
// (SigV4-signed, over HTTP/2) talking to a local fake that answers ConverseStream with AWS
// event-stream frames. The fake model asks for get-tiny-image; the next request must carry the
// image natively: an `image` block with the PNG's bytes inside the `toolResult`.
import { Agent } from "@junction/core";
import { bedrock } from "@junction/provider-bedrock";
import { readBedrockFixture, startBedrockFake } from "@junction/wire-fake/bedrock";
import { describe, expect, it } from "vitest";
import { useEverythingWithWireFake } from "./support/everything-with-wire-fake.js";

const fixture = (name: string) =>
  readBedrockFixture(new URL(`./__fixtures__/bedrock/${name}`, import.meta.url));

const context = useEverythingWithWireFake(startBedrockFake);

describe("Bedrock conversation with server-everything", () => {
  it("runs get-tiny-image and sends the image back as an image block inside the toolResult", async () => {
    const { fake, everything } = context;
    fake.enqueue(
      { frames: fixture("bedrock-tiny-image-tool-call.jsonl") },
      { frames: fixture("bedrock-logo-answer.jsonl") },
    );

    const model = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
    const agent = new Agent({
      provider: bedrock({
        region: "us-east-1",
        credentials: { accessKeyId: "AKIDFAKEBEDROCK", secretAccessKey: "fake-secret" },
        baseURL: fake.url,
        maxRetries: 0,
      }),
      model,
      system: "You can look at images.",
      mcps: [everything],
    });
    const handle = agent.send("Show me the tiny image and tell me what it is.");
    const events = [];
    for await (const event of handle) events.push(event);
    const result = await handle.final;

    // The final text is the last step's text.
    expect(result.text).toBe("It is the MCP logo.");
    expect(fake.requests.map((request) => request.path)).toEqual([
      `/model/${encodeURIComponent(model)}/converse-stream`,
      `/model/${encodeURIComponent(model)}/converse-stream`,
    ]);

    const toolUseId = "tooluse_Xw4eJYVbRq2nS1bQm9D0aA";
    expect(events.find((event) => event.type === "tool-call")).toEqual({
      type: "tool-call",
      id: toolUseId,
      name: "get-tiny-image",
      input: {},
    });
    const toolResult = events.find((event) => event.type === "tool-result");
    expect(toolResult).toMatchObject({ type: "tool-result", id: toolUseId, name: "get-tiny-image" });
    const image = (
      toolResult as { result: { content: { type: string; data?: string; mimeType?: string }[] } }
    ).result.content.find((part) => part.type === "image");
    expect(image?.mimeType).toBe("image/png");
    expect(image?.data).toMatch(/^iVBORw0KGgo/);

    const first = fake.requests[0]!.body;
    const definitions = await everything.listToolDefinitions();
    expect(first).toEqual({
      system: [{ text: "You can look at images." }],
      messages: [{ role: "user", content: [{ text: "Show me the tiny image and tell me what it is." }] }],
      toolConfig: { tools: expect.any(Array) },
    });
    // Every server tool goes out under its own name (they all fit Bedrock's rule) with its input
    // schema exactly as the server described it.
    expect(first.toolConfig.tools).toEqual(
      definitions.map((definition) => ({
        toolSpec: {
          name: definition.name,
          description: definition.description,
          inputSchema: { json: definition.inputSchema },
        },
      })),
    );
    expect(first.toolConfig.tools).toContainEqual({
      toolSpec: {
        name: "get-tiny-image",
        description: "Returns a tiny MCP logo image.",
        inputSchema: {
          json: { $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: {} },
        },
      },
    });

    const second = fake.requests[1]!.body;
    expect(second.toolConfig).toEqual(first.toolConfig);
    // The SDK sends the image's bytes base64-encoded in the JSON body: the same base64 the server sent.
    expect(second.messages).toEqual([
      { role: "user", content: [{ text: "Show me the tiny image and tell me what it is." }] },
      {
        role: "assistant",
        content: [{ text: "Let me check." }, { toolUse: { toolUseId, name: "get-tiny-image", input: {} } }],
      },
      {
        role: "user",
        content: [
          {
            toolResult: {
              toolUseId,
              content: [
                { text: "Here's the image you requested:" },
                { image: { format: "png", source: { bytes: image!.data } } },
                { text: "The image above is the MCP logo." },
              ],
            },
          },
        ],
      },
    ]);
    expect(result.warnings).toEqual([]);
    expect(result.usage).toMatchObject({ inputTokens: 1611 + 1745, outputTokens: 41 + 9 });
  });
});
