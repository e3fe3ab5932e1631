// A full conversation: an Agent (@junction/core) with @modelcontextprotocol/server-everything over
// stdio (@junction/mcp-client), and the Anthropic provider's real `@anthropic-ai/sdk` talking to a
// local wire fake that replays the Messages API's SSE stream. The fake model asks for
// get-tiny-image; the next request must carry the image natively: an `image` block with a base64
// source inside the `tool_result`; one over Anthropic's per-image limit goes as a note instead.
import { Agent, type MCPEntry } from "@junction/core";
import { MCP } from "@junction/mcp-client";
import { anthropic } from "@junction/provider-anthropic";
import type { ToolResult } from "@junction/types";
import { readSSEFixture, startWireFake } from "@junction/wire-fake";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { describe, expect, it } from "vitest";
import { useEverythingWithWireFake } from "./support/everything-with-wire-fake.js";

const fixture = (name: string) =>
  readSSEFixture(new URL(`./__fixtures__/anthropic/${name}`, import.meta.url));

const context = useEverythingWithWireFake(startWireFake);

/** Queues the model's two turns (call get-tiny-image, then answer) and makes an Agent on the fake. */
function tinyImageAgent(mcps: MCPEntry[], system?: string): Agent {
  context.fake.enqueue(
    { chunks: fixture("anthropic-tiny-image-tool-call.sse.txt") },
    { chunks: fixture("anthropic-logo-answer.sse.txt") },
  );
  return new Agent({
    provider: anthropic({ apiKey: "test-key", baseURL: context.fake.url, maxRetries: 0 }),
    model: "claude-sonnet-4-6",
    ...(system !== undefined ? { system } : {}),
    mcps,
  });
}

describe("Anthropic conversation with server-everything", () => {
  it("runs get-tiny-image and sends the image back as an image block inside the tool_result", async () => {
    const { fake, everything } = context;
    const agent = tinyImageAgent([everything], "You can look at images.");
    const handle = agent.send("Show me the tiny image and tell me what it is.");
    const events = [];
    for await (const event of handle) events.push(event);
    const result = await handle.final;

    // The final text is the last step's text.
    expect(result.text).toBe("It is the MCP logo.");
    expect(fake.requests).toHaveLength(2);

    const toolCallId = "toolu_01Ni1uw4HXYxUhc4iFMqx7yY";
    expect(events.find((event) => event.type === "tool-call")).toEqual({
      type: "tool-call",
      id: toolCallId,
      name: "get-tiny-image",
      input: {},
    });
    const toolResult = events.find((event) => event.type === "tool-result");
    expect(toolResult).toMatchObject({ type: "tool-result", id: toolCallId, name: "get-tiny-image" });
    const image = (
      toolResult as { result: { content: { type: string; data?: string; mimeType?: string }[] } }
    ).result.content.find((part) => part.type === "image");
    expect(image?.mimeType).toBe("image/png");
    expect(image?.data).toMatch(/^iVBORw0KGgo/);

    const first = fake.requests[0]!.body;
    const definitions = await everything.listToolDefinitions();
    expect(first).toEqual({
      model: "claude-sonnet-4-6",
      max_tokens: 4096,
      system: "You can look at images.",
      messages: [{ role: "user", content: "Show me the tiny image and tell me what it is." }],
      tools: expect.any(Array),
      stream: true,
    });
    // Every server tool goes out under its own name (they all fit Anthropic's rule) with its
    // input schema exactly as the server described it.
    expect(first.tools).toEqual(
      definitions.map((definition) => ({
        name: definition.name,
        description: definition.description,
        input_schema: definition.inputSchema,
      })),
    );
    expect(first.tools).toContainEqual({
      name: "get-tiny-image",
      description: "Returns a tiny MCP logo image.",
      input_schema: { $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: {} },
    });

    const second = fake.requests[1]!.body;
    expect(second.tools).toEqual(first.tools);
    expect(second.messages).toEqual([
      { role: "user", content: "Show me the tiny image and tell me what it is." },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Let me check." },
          { type: "tool_use", id: toolCallId, name: "get-tiny-image", input: {} },
        ],
      },
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: toolCallId,
            content: [
              { type: "text", text: "Here's the image you requested:" },
              { type: "image", source: { type: "base64", media_type: "image/png", data: image!.data } },
              { type: "text", text: "The image above is the MCP logo." },
            ],
          },
        ],
      },
    ]);
    expect(result.warnings).toEqual([]);
    expect(result.usage).toMatchObject({ inputTokens: 624 + 12, outputTokens: 59 + 30 });
  });

  // Issue 17, item 7, on the wire: a real MCP server's tool returns a 30 MB PNG; the provider
  // declares Anthropic's per-image limit, so the request carries a note, not 40 MB of base64.
  it("a tool's 30 MB image goes as a note inside the tool_result, with a warning naming the tool; the result keeps the image", async () => {
    const data = `iVBORw0KGgo${"A".repeat(40 * 1024 * 1024 - 11)}`;
    const server = new McpServer({ name: "camera", version: "1.0.0" });
    server.registerTool(
      "get-tiny-image",
      { description: "Returns a big image.", inputSchema: {} },
      async () => ({
        content: [
          { type: "text", text: "Here's the image you requested:" },
          { type: "image", data, mimeType: "image/png" },
        ],
      }),
    );
    const camera = new MCP({ transport: "memory", server });
    await camera.connect();
    try {
      const { fake } = context;
      const before = fake.requests.length;
      const result = await tinyImageAgent([camera]).send("Show me the image.").final;

      expect(fake.requests).toHaveLength(before + 2);
      const second = fake.requests.at(-1)!;
      const toolCallId = "toolu_01Ni1uw4HXYxUhc4iFMqx7yY";
      expect(second.body.messages.at(-1)).toEqual({
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: toolCallId,
            content: [
              { type: "text", text: "Here's the image you requested:" },
              {
                type: "text",
                text:
                  "[The tool returned an image (image/png) of 31457280 bytes, over the 3932160-byte limit for one image sent to this model, " +
                  "so Junction left it out here; the application still has it. If you need to see it, ask the tool for a smaller one.]",
              },
            ],
          },
        ],
      });
      expect(second.text.length).toBeLessThan(10_000);
      expect(result.warnings).toEqual([
        {
          code: "tool-result-media-too-large",
          message:
            `Tool "get-tiny-image" (call ${toolCallId}) returned an image (image/png) of 31457280 bytes, over 3932160 bytes, ` +
            'the limit provider "anthropic" declares for model "claude-sonnet-4-6"; the model got a note instead. ' +
            "The full result stays in the conversation and the tool-result event.",
        },
      ]);
      const kept = result.steps[0]!.toolResults[0]!.output as ToolResult;
      expect(kept.content[1]).toEqual({ type: "image", data, mimeType: "image/png" });
    } finally {
      await camera.close();
    }
  }, 60_000);
});
