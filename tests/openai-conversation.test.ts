// A full conversation: an Agent (@junction/core) with @modelcontextprotocol/server-everything over
// stdio (@junction/mcp-client), and the OpenAI provider's real `openai` SDK talking to a local wire
// fake that replays the Responses API's SSE stream. The fake model asks for get-tiny-image; the next
// request must carry the image natively: an `input_image` with a data URL inside the
// `function_call_output`'s output array.
import { Agent } from "@junction/core";
import { openai } from "@junction/provider-openai";
import { readSSEFixture, startWireFake } from "@junction/wire-fake";
import { describe, expect, it } from "vitest";
import { useEverythingWithWireFake } from "./support/everything-with-wire-fake.js";

const fixture = (name: string) => readSSEFixture(new URL(`./__fixtures__/openai/${name}`, import.meta.url));

const context = useEverythingWithWireFake(startWireFake);

describe("OpenAI Responses conversation with server-everything", () => {
  it("runs get-tiny-image and sends the image back as input_image inside the function_call_output", async () => {
    const { fake, everything } = context;
    fake.enqueue(
      { chunks: fixture("openai-tiny-image-tool-call.sse.txt") },
      { chunks: fixture("openai-logo-answer.sse.txt") },
    );

    const agent = new Agent({
      provider: openai({ apiKey: "sk-test", baseURL: `${fake.url}/v1`, maxRetries: 0 }),
      model: "gpt-5.1",
      system: "You can look at images.",
      mcps: [everything],
    });
    const handle = agent.send("Show me the tiny image and tell me what it is.");
    const events = [];
    for await (const event of handle) events.push(event);
    const result = await handle.final;

    expect(result.text).toBe("It is the MCP logo.");
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests.map((request) => request.path)).toEqual(["/v1/responses", "/v1/responses"]);

    const callId = "call_2FQdm3Br7Qb35YUBSkDR7kue";
    const itemId = "fc_0775572d10a16b66006a8d8528e8a887d2a32ef76463d40c98";
    expect(events.find((event) => event.type === "tool-call")).toEqual({
      type: "tool-call",
      id: callId,
      name: "get-tiny-image",
      input: {},
    });
    const toolResult = events.find((event) => event.type === "tool-result");
    expect(toolResult).toMatchObject({ type: "tool-result", id: callId, name: "get-tiny-image" });
    const content = (
      toolResult as {
        result: { content: { type: string; text?: string; data?: string; mimeType?: string }[] };
      }
    ).result.content;
    const image = content.find((part) => part.type === "image");
    expect(image?.mimeType).toBe("image/png");
    expect(image?.data).toMatch(/^iVBORw0KGgo/);

    const first = fake.requests[0]!.body;
    const definitions = await everything.listToolDefinitions();
    expect(first).toEqual({
      model: "gpt-5.1",
      instructions: "You can look at images.",
      input: [{ role: "user", content: "Show me the tiny image and tell me what it is." }],
      tools: expect.any(Array),
      stream: true,
    });
    // Every server tool goes out under its own name (they all fit OpenAI's rule), non-strict, with
    // its input schema as the server described it.
    expect(first.tools).toHaveLength(definitions.length);
    for (const definition of definitions) {
      expect(first.tools).toContainEqual({
        type: "function",
        name: definition.name,
        description: definition.description,
        parameters: definition.inputSchema,
        strict: false,
      });
    }
    expect(first.tools).toContainEqual({
      type: "function",
      name: "get-tiny-image",
      description: "Returns a tiny MCP logo image.",
      parameters: { $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: {} },
      strict: false,
    });

    const second = fake.requests[1]!.body;
    expect(second.tools).toEqual(first.tools);
    expect(second.input).toEqual([
      { role: "user", content: "Show me the tiny image and tell me what it is." },
      { type: "function_call", call_id: callId, name: "get-tiny-image", arguments: "{}", id: itemId },
      {
        type: "function_call_output",
        call_id: callId,
        output: content.map((part) =>
          part.type === "image"
            ? { type: "input_image", image_url: `data:image/png;base64,${image!.data}` }
            : { type: "input_text", text: part.text },
        ),
      },
    ]);
    // The server's result is text, the image, text: all three reach the model, the image natively.
    expect(second.input[2].output.map((item: { type: string }) => item.type)).toEqual([
      "input_text",
      "input_image",
      "input_text",
    ]);
    expect(result.warnings).toEqual([]);
    expect(result.usage).toMatchObject({ inputTokens: 45 + 318, outputTokens: 25 + 7 });
  });
});
