#!/usr/bin/env node
// The conformance server: the tools, resources and prompts the official server suite asks for
// (see `conformance list --server`), built with the package's public API from dist: logging,
// sampling, elicitation and four input_required fixtures from served tool()s through
// `servedContext`; the tasks scenarios' tools, served as tasks, from tasks-tools.mjs. What Junction
// does not wrap yet (the other input_required fixtures, the input_required prompt, resource
// subscriptions) is registered with the SDK through `configure`. Prints the endpoint URL on
// stdout once it listens.
//
//   node conformance/server.mjs [port]

import { tool } from "@junction/core";
import { inputRequired } from "@modelcontextprotocol/server";
import { z } from "zod";
import { createMCPServer, servedContext } from "../dist/index.js";
import { serveHTTP } from "../dist/node.js";
import { skills } from "./skills.mjs";
import { registerReconnection } from "./sse-polling.mjs";
import { tasksTools } from "./tasks-tools.mjs";

const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
const WAV = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const empty = z.object({});

const tools = [
  ...tasksTools,
  tool({
    name: "test_simple_text",
    description: "Tests simple text content response",
    schema: empty,
    execute: async () => "This is a simple text response for testing.",
  }),
  tool({
    name: "test_image_content",
    description: "Tests image content response",
    schema: empty,
    execute: async () => [{ type: "image", data: PNG, mimeType: "image/png" }],
  }),
  tool({
    name: "test_audio_content",
    description: "Tests audio content response",
    schema: empty,
    execute: async () => [{ type: "audio", data: WAV, mimeType: "audio/wav" }],
  }),
  tool({
    name: "test_embedded_resource",
    description: "Tests embedded resource content response",
    schema: empty,
    execute: async () => [
      {
        type: "resource",
        resource: {
          uri: "test://embedded-resource",
          mimeType: "text/plain",
          text: "This is an embedded resource content.",
        },
      },
    ],
  }),
  tool({
    name: "test_multiple_content_types",
    description: "Tests response with multiple content types (text, image, resource)",
    schema: empty,
    execute: async () => [
      { type: "text", text: "Multiple content types test:" },
      { type: "image", data: PNG, mimeType: "image/png" },
      {
        type: "resource",
        resource: {
          uri: "test://mixed-content-resource",
          mimeType: "application/json",
          text: JSON.stringify({ test: "data", value: 123 }),
        },
      },
    ],
  }),
  tool({
    name: "test_tool_with_progress",
    description: "Tests tool that reports progress notifications",
    schema: empty,
    execute: async (_input, context) => {
      for (const progress of [0, 50, 100]) {
        context?.onProgress?.({ progress, total: 100, message: `Completed step ${progress} of 100` });
        await sleep(50);
      }
      return "Progress test completed";
    },
  }),
  tool({
    name: "test_error_handling",
    description: "Tests error response handling",
    schema: empty,
    execute: async () => {
      throw new Error("This tool intentionally returns an error for testing");
    },
  }),
  {
    name: "json_schema_2020_12_tool",
    description: "Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613, SEP-2106)",
    inputSchema: {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      $defs: {
        address: {
          $anchor: "addressDef",
          type: "object",
          properties: { street: { type: "string" }, city: { type: "string" } },
        },
      },
      properties: {
        name: { type: "string" },
        address: { $ref: "#/$defs/address" },
        contactMethod: { type: "string", enum: ["phone", "email"] },
        phone: { type: "string" },
        email: { type: "string" },
      },
      allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
      if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else keyword (SEP-2106); the value is no function, so nothing treats it as a thenable
      then: { required: ["phone"] },
      else: { required: ["email"] },
      additionalProperties: false,
    },
    execute: async (input) => `JSON Schema 2020-12 tool called with: ${JSON.stringify(input)}`,
  },
  // SEP-2243: parameters mirrored into `Mcp-Param-*` headers. The SDK's HTTP entry checks each
  // header against the body before the tool runs (Base64 sentinel decoded, a mismatch or a
  // missing header refused with 400 / -32020).
  tool({
    name: "test_custom_headers",
    description: "A tool with x-mcp-header annotations to test custom header validation",
    schema: z.object({
      region: z.string().meta({ description: "Plain ASCII string value", "x-mcp-header": "Region" }),
      priority: z
        .number()
        .int()
        .optional()
        .meta({ description: "Integer value", "x-mcp-header": "Priority" }),
      query: z.string().optional().meta({ description: "No x-mcp-header: not mirrored" }),
    }),
    execute: async (input) => `Custom headers tool called with: ${JSON.stringify(input)}`,
  }),
];

/**
 * Served tool()s that log, ask the client's model and ask the person, through Junction's own API
 * (`servedContext`). The SDK's `log` under it honours the level: the session's `logging/setLevel`
 * on 2025-11-25, the request's `_meta` logLevel on 2026-07-28 (no logLevel there: nothing is sent).
 */
const logging = (name, description) =>
  tool({
    name,
    description,
    schema: empty,
    execute: async (_input, context) => {
      const served = servedContext(context);
      for (const data of ["Tool execution started", "Tool processing data", "Tool execution completed"]) {
        await served.log("info", data);
        await sleep(50);
      }
      return "Tool with logging executed successfully";
    },
  });
const elicitation = ({ name, description }, message, requestedSchema) =>
  tool({
    name,
    description,
    schema: z.object({ message: z.string().optional() }),
    execute: async (args, context) => {
      const result = await servedContext(context).elicit({
        mode: "form",
        message: args.message ?? message,
        requestedSchema,
      });
      return `User response: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
    },
  });
tools.push(
  logging("test_tool_with_logging", "Tests tool that emits log messages during execution"),
  logging("test_logging_tool", "Logs at info level; sends nothing when the request sets no logLevel"),
  tool({
    name: "test_sampling",
    description: "Tests server-initiated sampling (LLM completion request)",
    schema: z.object({ prompt: z.string() }),
    execute: async ({ prompt }, context) => {
      const result = await servedContext(context).sample({
        messages: [{ role: "user", content: { type: "text", text: prompt } }],
        maxTokens: 100,
      });
      const content = Array.isArray(result.content) ? result.content[0] : result.content;
      return `LLM response: ${content?.text ?? "No response"}`;
    },
  }),
  // The suite's own schema for test_elicitation (it answers with a username and an email).
  elicitation(
    { name: "test_elicitation", description: "Tests server-initiated elicitation (user input request)" },
    "Please respond",
    {
      type: "object",
      properties: {
        username: { type: "string", description: "User's response" },
        email: { type: "string", description: "User's email address" },
      },
      required: ["username", "email"],
    },
  ),
  elicitation(
    {
      name: "test_elicitation_sep1034_defaults",
      description: "Tests elicitation with default values per SEP-1034",
    },
    "Please review and update the form fields with defaults",
    {
      type: "object",
      properties: {
        name: { type: "string", description: "User name", default: "John Doe" },
        age: { type: "integer", description: "User age", default: 30 },
        score: { type: "number", description: "User score", default: 95.5 },
        status: {
          type: "string",
          description: "User status",
          enum: ["active", "inactive", "pending"],
          default: "active",
        },
        verified: { type: "boolean", description: "Verification status", default: true },
      },
      required: [],
    },
  ),
  elicitation(
    {
      name: "test_elicitation_sep1330_enums",
      description: "Tests elicitation with enum schema improvements per SEP-1330",
    },
    "Please select options",
    {
      type: "object",
      properties: {
        untitledSingle: { type: "string", enum: ["option1", "option2", "option3"] },
        titledSingle: {
          type: "string",
          oneOf: [
            { const: "value1", title: "First Option" },
            { const: "value2", title: "Second Option" },
            { const: "value3", title: "Third Option" },
          ],
        },
        legacyEnum: {
          type: "string",
          enum: ["opt1", "opt2", "opt3"],
          enumNames: ["Option One", "Option Two", "Option Three"],
        },
        untitledMulti: { type: "array", items: { type: "string", enum: ["option1", "option2", "option3"] } },
        titledMulti: {
          type: "array",
          items: {
            anyOf: [
              { const: "value1", title: "First Choice" },
              { const: "value2", title: "Second Choice" },
              { const: "value3", title: "Third Choice" },
            ],
          },
        },
      },
      required: [],
    },
  ),
);

/** What Junction does not wrap yet: the input_required fixtures and resource subscriptions. */
function configure(server) {
  configureInputRequired(server);
  registerReconnection(server);
  server.server.setRequestHandler("resources/subscribe", async () => ({}));
  server.server.setRequestHandler("resources/unsubscribe", async () => ({}));
}

// The input_required (MRTR, SEP-2322) fixtures: tools and a prompt that ask the client for input
// within the request, their state sealed with the server's own codec (`server.requestState`).
const elicit = (message, properties) => ({
  method: "elicitation/create",
  params: { message, requestedSchema: { type: "object", properties, required: Object.keys(properties) } },
});
const sample = (text, maxTokens) => ({
  method: "sampling/createMessage",
  params: { messages: [{ role: "user", content: { type: "text", text } }], maxTokens },
});
const LIST_ROOTS = { method: "roots/list", params: {} };
const answered = (ctx, key) => {
  const value = ctx.mcpReq.inputResponses?.[key];
  return typeof value === "object" && value !== null ? value : undefined;
};
const textOf = (text) => ({ content: [{ type: "text", text }] });
const sampledText = (result) =>
  (Array.isArray(result.content) ? result.content : [result.content]).find((c) => c?.type === "text")?.text ??
  "";
const mint = (payload, ctx) => server.requestState.mint(payload, ctx);
const stateOf = (ctx) => ctx.mcpReq.requestState();

function configureInputRequired(sdk) {
  const register = (name, handler) =>
    sdk.registerTool(name, { description: `input_required fixture ${name}`, inputSchema: empty }, handler);

  register("test_input_required_result_list_roots", async (_args, ctx) => {
    const answer = answered(ctx, "client_roots");
    if (Array.isArray(answer?.roots))
      return textOf(`Roots: ${answer.roots.map((root) => root.uri).join(", ")}`);
    return inputRequired({ inputRequests: { client_roots: LIST_ROOTS } });
  });
  register("test_input_required_result_request_state", async (_args, ctx) => {
    const state = stateOf(ctx);
    const answer = answered(ctx, "confirm");
    if (state?.round === 1 && answer)
      return textOf(`state-ok: confirmed ${JSON.stringify(answer.content ?? {})}`);
    return inputRequired({
      inputRequests: { confirm: elicit("Please confirm", { ok: { type: "boolean" } }) },
      requestState: await mint({ round: 1 }, ctx),
    });
  });
  register("test_input_required_result_multiple_inputs", async (_args, ctx) => {
    const keys = ["user_name", "greeting", "client_roots"];
    if (stateOf(ctx)?.round === 1 && keys.every((key) => answered(ctx, key))) {
      return textOf(`All inputs received: ${keys.join(", ")}`);
    }
    return inputRequired({
      inputRequests: {
        user_name: elicit("What is your name?", { name: { type: "string" } }),
        greeting: sample("Generate a greeting", 50),
        client_roots: LIST_ROOTS,
      },
      requestState: await mint({ round: 1 }, ctx),
    });
  });

  register("test_input_required_result_tampered_state", async (_args, ctx) => {
    // A changed requestState never gets here: the server's codec refuses it (-32602).
    if (stateOf(ctx)?.round === 1) return textOf("state verified");
    return inputRequired({
      inputRequests: { confirm: elicit("Please confirm", { ok: { type: "boolean" } }) },
      requestState: await mint({ round: 1 }, ctx),
    });
  });
  // server-stateless (SEP-2575): asks for sampling, which the probe does not declare, so the SDK
  // answers -32021 with `requiredCapabilities: { sampling: {} }` (HTTP 400) instead.
  register("test_missing_capability", async (_args, ctx) => {
    const answer = answered(ctx, "completion");
    if (answer?.content) return textOf(`The model said: ${sampledText(answer)}`);
    return inputRequired({ inputRequests: { completion: sample("Say hello", 20) } });
  });
  register("test_input_required_result_capabilities", async (_args, ctx) => {
    const declared = ctx.mcpReq.envelope?.["io.modelcontextprotocol/clientCapabilities"] ?? {};
    const inputRequests = {};
    if (declared.elicitation)
      inputRequests.user_name = elicit("What is your name?", { name: { type: "string" } });
    if (declared.sampling) inputRequests.greeting = sample("Generate a greeting", 50);
    if (declared.roots) inputRequests.client_roots = LIST_ROOTS;
    if (
      Object.keys(inputRequests).length === 0 ||
      Object.keys(inputRequests).every((key) => answered(ctx, key))
    ) {
      return textOf("Nothing more to ask");
    }
    return inputRequired({ inputRequests });
  });
  sdk.registerPrompt(
    "test_input_required_result_prompt",
    { description: "A prompt that asks for its context first (input_required)" },
    async (ctx) => {
      const answer = answered(ctx, "user_context");
      if (answer?.action === "accept" && typeof answer.content?.context === "string") {
        return {
          messages: [
            { role: "user", content: { type: "text", text: `Use this context: ${answer.content.context}` } },
          ],
        };
      }
      return inputRequired({
        inputRequests: {
          user_context: elicit("What context should the prompt use?", { context: { type: "string" } }),
        },
      });
    },
  );
}

// input_required (2026-07-28) from served tool()s: each question asked under the key the suite
// expects; the call runs again with the answers so far (servedContext's rounds).
const askName = (key) => async (_input, context) => {
  const answer = await servedContext(context).elicit(
    {
      message: "What is your name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    },
    { key },
  );
  return typeof answer.content?.name === "string"
    ? `Hello, ${answer.content.name}!`
    : `No name (${answer.action})`;
};
tools.push(
  tool({
    name: "test_input_required_result_elicitation",
    description: "input_required fixture test_input_required_result_elicitation",
    schema: empty,
    execute: askName("user_name"),
  }),
  // server-stateless: asks for input within the response, never with an independent request.
  tool({
    name: "test_streaming_elicitation",
    description: "input_required fixture test_streaming_elicitation",
    schema: empty,
    execute: askName("user_name"),
  }),
  tool({
    name: "test_input_required_result_sampling",
    description: "input_required fixture test_input_required_result_sampling",
    schema: empty,
    execute: async (_input, context) => {
      const answer = await servedContext(context).sample(
        {
          messages: [{ role: "user", content: { type: "text", text: "What is the capital of France?" } }],
          maxTokens: 100,
        },
        { key: "capital_question" },
      );
      return `The model said: ${sampledText(answer)}`;
    },
  }),
  tool({
    name: "test_input_required_result_multi_round",
    description: "input_required fixture test_input_required_result_multi_round",
    schema: empty,
    execute: async (_input, context) => {
      const served = servedContext(context);
      const ask = (message, field, key) =>
        served.elicit(
          {
            message,
            requestedSchema: {
              type: "object",
              properties: { [field]: { type: "string" } },
              required: [field],
            },
          },
          { key },
        );
      const name = (await ask("Step 1: What is your name?", "name", "step1")).content?.name ?? "?";
      const color =
        (await ask("Step 2: What is your favorite color?", "color", "step2")).content?.color ?? "?";
      return `Done: ${name} likes ${color}`;
    },
  }),
);

const server = createMCPServer({
  name: "junction-conformance-server",
  version: "1.0.0",
  tools,
  // The tasks extension (and 2025-11-25 tasks) for the tasks scenarios' tools (tasks-tools.mjs).
  tasks: {},
  logging: true,
  skills,
  resources: [
    {
      uri: "test://static-text",
      name: "static-text",
      title: "Static Text Resource",
      description: "A static text resource for testing",
      mimeType: "text/plain",
      read: () => ({
        contents: [
          {
            uri: "test://static-text",
            mimeType: "text/plain",
            text: "This is the content of the static text resource.",
          },
        ],
      }),
    },
    {
      uri: "test://static-binary",
      name: "static-binary",
      title: "Static Binary Resource",
      description: "A static binary resource (image) for testing",
      mimeType: "image/png",
      read: () => ({ contents: [{ uri: "test://static-binary", mimeType: "image/png", blob: PNG }] }),
    },
    {
      uri: "test://watched-resource",
      name: "watched-resource",
      title: "Watched Resource",
      description: "A resource that can be subscribed to",
      mimeType: "text/plain",
      read: () => ({
        contents: [
          { uri: "test://watched-resource", mimeType: "text/plain", text: "Watched resource content" },
        ],
      }),
    },
  ],
  resourceTemplates: [
    {
      uriTemplate: "test://template/{id}/data",
      name: "template",
      title: "Resource Template",
      description: "A resource template with parameter substitution",
      mimeType: "application/json",
      read: (uri, variables) => ({
        contents: [
          {
            uri: uri.toString(),
            mimeType: "application/json",
            text: JSON.stringify({
              id: variables.id,
              templateTest: true,
              data: `Data for ID: ${variables.id}`,
            }),
          },
        ],
      }),
    },
  ],
  prompts: [
    {
      name: "test_simple_prompt",
      title: "Simple Test Prompt",
      description: "A simple prompt without arguments",
      get: () => ({
        messages: [{ role: "user", content: { type: "text", text: "This is a simple prompt for testing." } }],
      }),
    },
    {
      name: "test_prompt_with_arguments",
      title: "Prompt With Arguments",
      description: "A prompt with required arguments",
      arguments: z.object({
        arg1: z.string().describe("First test argument"),
        arg2: z.string().describe("Second test argument"),
      }),
      complete: { arg1: (value) => ["paris", "park", "party"].filter((v) => v.startsWith(value)) },
      get: ({ arg1, arg2 }) => ({
        messages: [
          {
            role: "user",
            content: { type: "text", text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` },
          },
        ],
      }),
    },
    {
      name: "test_prompt_with_embedded_resource",
      title: "Prompt With Embedded Resource",
      description: "A prompt that includes an embedded resource",
      arguments: z.object({ resourceUri: z.string().describe("URI of the resource to embed") }),
      get: ({ resourceUri }) => ({
        messages: [
          {
            role: "user",
            content: {
              type: "resource",
              resource: {
                uri: resourceUri,
                mimeType: "text/plain",
                text: "Embedded resource content for testing.",
              },
            },
          },
          { role: "user", content: { type: "text", text: "Please process the embedded resource above." } },
        ],
      }),
    },
    {
      name: "test_prompt_with_image",
      title: "Prompt With Image",
      description: "A prompt that includes image content",
      get: () => ({
        messages: [
          { role: "user", content: { type: "image", data: PNG, mimeType: "image/png" } },
          { role: "user", content: { type: "text", text: "Please analyze the image above." } },
        ],
      }),
    },
  ],
  configure,
});

const port = Number(process.argv[2] ?? 0);
const running = await serveHTTP(server, { port, hostname: "localhost", rateLimit: false });
process.stdout.write(`${running.url}\n`);
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    running.close().finally(() => process.exit(0));
  });
}
