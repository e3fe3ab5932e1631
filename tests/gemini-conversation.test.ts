// A full conversation: an Agent (@junction/core) with @modelcontextprotocol/server-everything over
// stdio (@junction/mcp-client), and the Gemini provider's real `@google/genai` SDK talking to a
// local wire fake that replays Gemini's `?alt=sse` stream. The fake model asks for get-tiny-image;
// the next request must carry the image natively for a Gemini 3 model: `inlineData` inside
// `functionResponse.parts`, with the call's thoughtSignature echoed back. A second conversation
// checks that a result's structuredContent reaches the model only when no text part mirrors it.
import { Agent, tool } from "@junction/core";
import { gemini } from "@junction/provider-gemini";
import { readSSEFixture, startWireFake } from "@junction/wire-fake";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { useEverythingWithWireFake } from "./support/everything-with-wire-fake.js";

const fixture = (name: string) => readSSEFixture(new URL(`./__fixtures__/gemini/${name}`, import.meta.url));
const SIGNATURE =
  "EqUCCqICAb4+9vsh8Pd5taZVoPzSvjWWwzBrvhEQWBLCGa7IdY8FBMm7Z6dCKFU3Ft0la15gF7RaHe1NlPRygQec0bFwPDfMwGcUOMNiJiNIKxusCs4ejCZRuouNYQ4etEIt7CujEUHiILLfZXSJZYhs4UCrD2bLqPq0sE0lWgYJnzHkkKUOnMsA2hKffAhtF4DWn5INYj8pPssvch/2VpDFW2F9XSE04zLDzkIWF2eztJX50Y0lTehRZC3FW7fOrXCzGx+PwdataD6eXlF5O1zn+86XtmktOs2DEp4o1PMvXFFAXe8GGvPt8Idf3UtHMq7AsapwMW9sjiKj+FJk54m+9LMTSaj7C86smfvoQryYBEHTVazr1bEnpl4bPG5JUtm2yAMkHj4=";

const context = useEverythingWithWireFake(startWireFake);

describe("Gemini conversation with server-everything", () => {
  it("runs get-tiny-image and sends the image back inside functionResponse.parts", async () => {
    const { fake, everything } = context;
    fake.enqueue(
      { chunks: fixture("gemini-tiny-image-tool-call.sse.txt") },
      { chunks: fixture("gemini-logo-answer.sse.txt") },
    );

    const agent = new Agent({
      provider: gemini({ apiKey: "test-key", baseURL: fake.url, apiVersion: "v1beta", maxRetries: 0 }),
      model: "gemini-3-pro-preview",
      system: "You can look at images.",
      mcps: [everything],
    });
    const handle = agent.send("Show me the tiny image and tell me what it is.");
    const events = [];
    for await (const event of handle) events.push(event);
    const result = await handle.final;

    expect(result.text).toBe("It is the MCP logo.");
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests.map((request) => request.path)).toEqual([
      "/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse",
      "/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse",
    ]);

    // Gemini sent the call without an id: the provider made a stable one from the response id.
    const toolCallId = "tiny-image-resp-1-0";
    expect(events.find((event) => event.type === "tool-call")).toEqual({
      type: "tool-call",
      id: toolCallId,
      name: "get-tiny-image",
      input: {},
    });
    const toolResult = events.find((event) => event.type === "tool-result");
    expect(toolResult).toMatchObject({ type: "tool-result", id: toolCallId, name: "get-tiny-image" });
    const content = (
      toolResult as {
        result: { content: { type: string; text?: string; data?: string; mimeType?: string }[] };
      }
    ).result.content;
    const image = content.find((part) => part.type === "image");
    expect(image?.mimeType).toBe("image/png");
    expect(image?.data).toMatch(/^iVBORw0KGgo/);

    const definitions = await everything.listToolDefinitions();
    const first = fake.requests[0]!.body;
    expect(first).toEqual({
      contents: [{ role: "user", parts: [{ text: "Show me the tiny image and tell me what it is." }] }],
      systemInstruction: { parts: [{ text: "You can look at images." }] },
      tools: [{ functionDeclarations: expect.any(Array) }],
      // The Agent sets no generation settings; @google/genai still sends the (empty) object.
      generationConfig: {},
    });
    // Every server tool is declared under its own name with its schema in Gemini's subset: the
    // server's schemas use only keywords Gemini takes, so all that goes is the `$schema` annotation.
    expect(first.tools[0].functionDeclarations).toEqual(
      definitions.map((definition) => ({
        name: definition.name,
        description: definition.description,
        parametersJsonSchema: withoutSchemaAnnotation(definition.inputSchema),
      })),
    );
    expect(first.tools[0].functionDeclarations).toContainEqual({
      name: "get-tiny-image",
      description: "Returns a tiny MCP logo image.",
      parametersJsonSchema: { type: "object", properties: {} },
    });

    const second = fake.requests[1]!.body;
    expect(second.tools).toEqual(first.tools);
    const texts = content.filter((part) => part.type === "text").map((part) => part.text);
    expect(second.contents).toEqual([
      { role: "user", parts: [{ text: "Show me the tiny image and tell me what it is." }] },
      {
        role: "model",
        parts: [
          { text: "Let me check." },
          { functionCall: { name: "get-tiny-image", args: {} }, thoughtSignature: SIGNATURE },
        ],
      },
      {
        role: "user",
        parts: [
          {
            functionResponse: {
              name: "get-tiny-image",
              response: { output: texts.join("\n") },
              parts: [{ inlineData: { mimeType: "image/png", data: image!.data } }],
            },
          },
        ],
      },
    ]);
    expect(texts).toEqual(["Here's the image you requested:", "The image above is the MCP logo."]);
    expect(result.warnings).toEqual([]);
  });
  it("sends a result's text to the model and its structuredContent only when no text mirrors it, keeping it for code", async () => {
    const { fake, everything } = context;
    const earlier = fake.requests.length;
    fake.enqueue(
      { chunks: fixture("gemini-structured-content-tool-calls.sse.txt") },
      { chunks: fixture("gemini-weather-answer.sse.txt") },
    );
    const reading = { station: "ORD", pressureHpa: 1012, windKph: 19 };
    // A local tool that answers with structured content only: the model must get it as the fallback.
    const stationReading = tool({
      name: "station_reading",
      description: "The latest reading of a weather station.",
      schema: z.object({ station: z.string() }),
      execute: async () => ({ content: [], isError: false, structuredContent: reading }),
    });

    const agent = new Agent({
      provider: gemini({ apiKey: "test-key", baseURL: fake.url, apiVersion: "v1beta", maxRetries: 0 }),
      model: "gemini-3-pro-preview",
      tools: [stationReading],
      mcps: [everything],
    });
    const handle = agent.send("What is the weather in Chicago, and what does station ORD read?");
    const events = [];
    for await (const event of handle) events.push(event);
    const result = await handle.final;

    expect(result.text).toBe("Chicago: 36 °C, light rain; ORD reads 1012 hPa.");
    const requests = fake.requests.slice(earlier);
    expect(requests).toHaveLength(2);
    // server-everything's get-structured-content mirrors its structured content as a text part.
    const chicago = { temperature: 36, conditions: "Light rain / drizzle", humidity: 82 };
    const weatherResult = {
      content: [{ type: "text", text: JSON.stringify(chicago) }],
      isError: false,
      structuredContent: chicago,
    };
    const stationResult = { content: [], isError: false, structuredContent: reading };
    // The tool-result events (in completion order) carry the whole results for code and UI.
    const toolResults = events.filter((event) => event.type === "tool-result");
    expect(
      toolResults
        .map((event) => [event.id, event.name, event.result])
        .sort(([a], [b]) => String(a).localeCompare(String(b))),
    ).toEqual([
      ["weather-resp-1-0", "get-structured-content", weatherResult],
      ["weather-resp-1-1", "station_reading", stationResult],
    ]);
    // So does the conversation.
    expect(result.messages.at(-2)).toEqual({
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "weather-resp-1-0",
          toolName: "get-structured-content",
          output: weatherResult,
        },
        {
          type: "tool-result",
          toolCallId: "weather-resp-1-1",
          toolName: "station_reading",
          output: stationResult,
        },
      ],
    });

    // The model got the text of the first result only, and the second's structured content as JSON.
    expect(requests[1]!.body.contents).toEqual([
      {
        role: "user",
        parts: [{ text: "What is the weather in Chicago, and what does station ORD read?" }],
      },
      {
        role: "model",
        parts: [
          { text: "Let me check both." },
          {
            functionCall: { name: "get-structured-content", args: { location: "Chicago" } },
            thoughtSignature: "c2lnLXdlYXRoZXItY2FsbHM=",
          },
          { functionCall: { name: "station_reading", args: { station: "ORD" } } },
        ],
      },
      {
        role: "user",
        parts: [
          {
            functionResponse: {
              name: "get-structured-content",
              response: { output: '{"temperature":36,"conditions":"Light rain / drizzle","humidity":82}' },
            },
          },
          { functionResponse: { name: "station_reading", response: { output: reading } } },
        ],
      },
    ]);
    expect(result.warnings).toEqual([]);
  });
});

/** A JSON Schema without its `$schema` annotations, at any depth. */
function withoutSchemaAnnotation(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSchemaAnnotation);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== "$schema")
      .map(([key, entry]) => [key, withoutSchemaAnnotation(entry)]),
  );
}
