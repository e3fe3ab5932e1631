import { tool } from "@junction/core";
import type { Tool } from "@junction/types";
import { z } from "zod";
import { createMCPServer, type MCPServer } from "../src/index.js";

/** A 1×1 red PNG. */
export const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/** A minimal WAV file. */
export const WAV = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

/** The rich parts `picture` returns, exactly. */
export const RICH_PARTS = [
  { type: "text", text: "a picture, a sound, a note and a link" },
  { type: "image", data: PNG, mimeType: "image/png" },
  { type: "audio", data: WAV, mimeType: "audio/wav" },
  { type: "resource", resource: { uri: "notes://1", mimeType: "text/plain", text: "first note" } },
  { type: "resource_link", uri: "notes://2", name: "second note", mimeType: "text/plain" },
] as const;

/** What the tools saw, for the tests to read. */
export interface FixtureProbe {
  /** Made by each `wait` call; resolves when its signal aborts. */
  aborted?: Promise<unknown>;
}

/** The fixture's tools: a zod tool, rich parts, structured output, failures, progress, cancellation. */
export function fixtureTools(probe: FixtureProbe = {}): Tool[] {
  return [
    tool({
      name: "add",
      description: "Adds two numbers",
      schema: z.object({ a: z.number(), b: z.number() }),
      annotations: { title: "Add", readOnlyHint: true, openWorldHint: false },
      execute: async ({ a, b }) => String(a + b),
    }),
    tool({
      name: "picture",
      description: "Returns an image, audio, an embedded resource and a resource link",
      schema: z.object({}),
      execute: async () => structuredClone(RICH_PARTS) as never,
    }),
    tool({
      name: "weather",
      description: "The weather in a city, as structured content",
      schema: z.object({ city: z.string() }),
      outputSchema: {
        type: "object",
        properties: { city: { type: "string" }, temperatureC: { type: "number" } },
        required: ["city", "temperatureC"],
      },
      execute: async ({ city }) => ({
        content: [{ type: "text", text: `${city}: 21°C` }],
        isError: false,
        structuredContent: { city, temperatureC: 21 },
      }),
    }),
    tool({
      name: "bad_weather",
      description: "Structured content that does not match its output schema",
      schema: z.object({}),
      outputSchema: {
        type: "object",
        properties: { temperatureC: { type: "number" } },
        required: ["temperatureC"],
      },
      execute: async () => ({
        content: [{ type: "text", text: "warm" }],
        isError: false,
        structuredContent: { temperatureC: "warm" },
      }),
    }),
    tool({
      name: "refuse",
      description: "Answers with an error result of its own",
      schema: z.object({}),
      execute: async () => ({ content: [{ type: "text", text: "not today" }], isError: true }),
    }),
    tool({
      name: "explode",
      description: "Throws",
      schema: z.object({}),
      execute: async () => {
        throw new TypeError("the fuse was lit");
      },
    }),
    tool({
      name: "count",
      description: "Reports progress three times, then answers",
      schema: z.object({}),
      execute: async (_input, context) => {
        for (let step = 1; step <= 3; step++) {
          context?.onProgress?.({ progress: step, total: 3, message: `step ${step}` });
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        return "counted";
      },
    }),
    tool({
      name: "wait",
      description: "Waits until cancelled",
      schema: z.object({}),
      execute: (_input, context) => {
        let aborted: (reason: unknown) => void = () => undefined;
        probe.aborted = new Promise((resolve) => {
          aborted = resolve;
        });
        return new Promise((_resolve, reject) => {
          context?.signal?.addEventListener("abort", () => {
            aborted(context.signal?.reason);
            reject(context.signal?.reason);
          });
        });
      },
    }),
  ];
}

/** The fixture server: tools, a resource, a resource template and prompts. */
export function fixtureServer(probe: FixtureProbe = {}): MCPServer {
  return createMCPServer({
    name: "fixture",
    version: "1.2.3",
    instructions: "A server for tests.",
    tools: fixtureTools(probe),
    resources: [
      {
        uri: "notes://readme",
        name: "readme",
        mimeType: "text/plain",
        read: (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/plain", text: "read me" }] }),
      },
    ],
    resourceTemplates: [
      {
        uriTemplate: "notes://{id}",
        name: "note",
        mimeType: "text/plain",
        read: (uri, variables) => ({
          contents: [{ uri: uri.href, mimeType: "text/plain", text: `note ${String(variables.id)}` }],
        }),
      },
    ],
    prompts: [
      {
        name: "greet",
        description: "Greets someone",
        arguments: z.object({ name: z.string().describe("Who to greet") }),
        complete: { name: (value) => ["Ada", "Alan", "Grace"].filter((name) => name.startsWith(value)) },
        get: ({ name }) => ({
          messages: [{ role: "user", content: { type: "text", text: `Say hello to ${name}.` } }],
        }),
      },
    ],
  });
}
