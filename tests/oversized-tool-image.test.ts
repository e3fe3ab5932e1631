// Issue 17, item 7, on the wire: a real MCP server's tool returns a 30 MB PNG; the Anthropic
// provider (its real `@anthropic-ai/sdk` against the local wire fake) declares Anthropic's
// per-image limit in its capabilities, so the next request body carries a note inside the
// `tool_result` instead of 40 MB of base64, while the run's result keeps the image.
import { Agent } from "@junction/core";
import { MCP } from "@junction/mcp-client";
import { anthropic } from "@junction/provider-anthropic";
import type { ToolResult } from "@junction/types";
import { readSSEFixture, startWireFake } from "@junction/wire-fake";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { describe, expect, it } from "vitest";

const fixture = (name: string) =>
  readSSEFixture(new URL(`./__fixtures__/anthropic/${name}`, import.meta.url));

describe("Anthropic request after a tool returned a 30 MB image", () => {
  it("carries a note in the tool_result instead of the image, and a warning names the tool", async () => {
    // 30 MiB of image: 40 MiB of base64, starting with the PNG signature.
    const data = `iVBORw0KGgo${"A".repeat(40 * 1024 * 1024 - 11)}`;
    const server = new McpServer({ name: "camera", version: "1.0.0" });
    server.registerTool(
      "get-tiny-image",
      { description: "Returns a not so tiny image.", inputSchema: {} },
      async () => ({
        content: [
          { type: "text", text: "Here's the image you requested:" },
          { type: "image", data, mimeType: "image/png" },
        ],
      }),
    );
    const camera = new MCP({ transport: "memory", server });
    await camera.connect();
    const fake = await startWireFake();
    try {
      fake.enqueue(
        { chunks: fixture("anthropic-tiny-image-tool-call.sse.txt") },
        { chunks: fixture("anthropic-logo-answer.sse.txt") },
      );
      const agent = new Agent({
        provider: anthropic({ apiKey: "test-key", baseURL: fake.url, maxRetries: 0 }),
        model: "claude-sonnet-4-6",
        mcps: [camera],
      });
      const result = await agent.send("Show me the image.").final;

      expect(fake.requests).toHaveLength(2);
      const toolCallId = "toolu_01Ni1uw4HXYxUhc4iFMqx7yY";
      expect(fake.requests[1]!.body.messages.at(-1)).toEqual({
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
      expect(fake.requests[1]!.text.length).toBeLessThan(10_000);
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
      await fake.close();
      await camera.close();
    }
  }, 60_000);
});
