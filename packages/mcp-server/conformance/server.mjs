#!/usr/bin/env node
// The conformance server: the tools, resources and prompts the official server suite asks for
// (see `conformance list --server`), built with Junction's public API only, from dist: logging,
// sampling, elicitation, roots and the input_required (2026-07-28) fixtures from served tool()s
// and a prompt through `servedContext`, a resource with `subscribe: true`. Nothing is registered
// with the SDK directly. Prints the endpoint URL on stdout once it listens.
//
//   node conformance/server.mjs [port]

import { tool } from "@junction/core";
import { z } from "zod";
import { createMCPServer, servedContext } from "../dist/index.js";
import { serveHTTP } from "../dist/node.js";
import { skills } from "./skills.mjs";
import { reconnection } from "./sse-polling.mjs";
import { tasksTools } from "./tasks-tools.mjs";

const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
const WAV = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const empty = z.object({});

const tools = [
  ...tasksTools,
  reconnection,
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

// input_required (2026-07-28) from served tool()s: each question asked under the key the suite
// expects; the call runs again with the answers so far (servedContext's rounds). Questions asked
// together (Promise.all) go in one round.
const form = (message, field, type = "string") => ({
  message,
  requestedSchema: { type: "object", properties: { [field]: { type } }, required: [field] },
});
const greeting = {
  messages: [{ role: "user", content: { type: "text", text: "Generate a greeting" } }],
  maxTokens: 50,
};
const sampledText = (result) =>
  (Array.isArray(result.content) ? result.content : [result.content]).find((c) => c?.type === "text")?.text ??
  "";
const fixture = (name, execute) =>
  tool({ name, description: `input_required fixture ${name}`, schema: empty, execute });
const askName = (key) => async (_input, context) => {
  const answer = await servedContext(context).elicit(form("What is your name?", "name"), { key });
  return typeof answer.content?.name === "string"
    ? `Hello, ${answer.content.name}!`
    : `No name (${answer.action})`;
};
tools.push(
  fixture("test_input_required_result_elicitation", askName("user_name")),
  // server-stateless: asks for input within the response, never with an independent request.
  fixture("test_streaming_elicitation", askName("user_name")),
  fixture("test_input_required_result_sampling", async (_input, context) => {
    const answer = await servedContext(context).sample(
      {
        messages: [{ role: "user", content: { type: "text", text: "What is the capital of France?" } }],
        maxTokens: 100,
      },
      { key: "capital_question" },
    );
    return `The model said: ${sampledText(answer)}`;
  }),
  fixture("test_input_required_result_list_roots", async (_input, context) => {
    const { roots } = await servedContext(context).roots({ key: "client_roots" });
    return `Roots: ${roots.map((root) => root.uri).join(", ")}`;
  }),
  fixture("test_input_required_result_multi_round", async (_input, context) => {
    const served = servedContext(context);
    const name = await served.elicit(form("Step 1: What is your name?", "name"), { key: "step1" });
    const color = await served.elicit(form("Step 2: What is your favorite color?", "color"), {
      key: "step2",
    });
    return `Done: ${name.content?.name ?? "?"} likes ${color.content?.color ?? "?"}`;
  }),
  // The tool's own state rides the signed requestState from one round to the next.
  fixture("test_input_required_result_request_state", async (_input, context) => {
    const served = servedContext(context);
    if (served.state === undefined) served.setState({ round: 1 });
    const answer = await served.elicit(form("Please confirm", "ok", "boolean"), { key: "confirm" });
    return served.state?.round === 1
      ? `state-ok: confirmed ${JSON.stringify(answer.content ?? {})}`
      : "state lost";
  }),
  // A changed requestState never gets here: the server's codec refuses it (-32602).
  fixture("test_input_required_result_tampered_state", async (_input, context) => {
    await servedContext(context).elicit(form("Please confirm", "ok", "boolean"), { key: "confirm" });
    return "state verified";
  }),
  fixture("test_input_required_result_multiple_inputs", async (_input, context) => {
    const served = servedContext(context);
    await Promise.all([
      served.elicit(form("What is your name?", "name"), { key: "user_name" }),
      served.sample(greeting, { key: "greeting" }),
      served.roots({ key: "client_roots" }),
    ]);
    return "All inputs received: user_name, greeting, client_roots";
  }),
  // Asks only what the request's capabilities declare, all in one round.
  fixture("test_input_required_result_capabilities", async (_input, context) => {
    const served = servedContext(context);
    const declared = served.clientCapabilities;
    await Promise.all([
      declared.elicitation && served.elicit(form("What is your name?", "name"), { key: "user_name" }),
      declared.sampling && served.sample(greeting, { key: "greeting" }),
      declared.roots && served.roots({ key: "client_roots" }),
    ]);
    return "Nothing more to ask";
  }),
  // server-stateless (SEP-2575): asks for sampling, which the probe does not declare: the client
  // gets -32021 with `requiredCapabilities: { sampling: {} }` (HTTP 400).
  fixture("test_missing_capability", async (_input, context) => {
    const answer = await servedContext(context).sample(
      { messages: [{ role: "user", content: { type: "text", text: "Say hello" } }], maxTokens: 20 },
      { key: "completion" },
    );
    return `The model said: ${sampledText(answer)}`;
  }),
);

// server-stateless (SEP-2575)'s diagnostic hooks: each tells the clients a list changed
// (`server.listChanged`), which reaches the 2026-07-28 listen streams that asked for that list.
const announce = (name, list) =>
  tool({
    name,
    description: `Tells clients the ${list} list changed (notifications/${list}/list_changed)`,
    schema: empty,
    execute: async () => {
      await server.listChanged(list);
      return `${list} list change announced`;
    },
  });
tools.push(announce("test_trigger_tool_change", "tools"), announce("test_trigger_prompt_change", "prompts"));

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
      subscribe: true,
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
    {
      name: "test_input_required_result_prompt",
      description: "A prompt that asks for its context first (input_required)",
      get: async (_args, context) => {
        const answer = await servedContext(context).elicit(
          form("What context should the prompt use?", "context"),
          { key: "user_context" },
        );
        const text =
          answer.action === "accept" ? `Use this context: ${answer.content?.context}` : "No context given";
        return { messages: [{ role: "user", content: { type: "text", text } }] };
      },
    },
  ],
});

const port = Number(process.argv[2] ?? 0);
const running = await serveHTTP(server, { port, hostname: "localhost", rateLimit: false });
process.stdout.write(`${running.url}\n`);
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    running.close().finally(() => process.exit(0));
  });
}
