// Every request body is checked by its schema (shared/api-bodies.ts) before a route acts: a bad
// one is a 400 whose message names the field and what is wrong with it, and nothing is done.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlayground, type TestPlayground } from "../../test/test-playground.js";

let test: TestPlayground;
beforeAll(async () => {
  test = await startTestPlayground({ seedDefaults: false });
});
afterAll(async () => {
  await test.close();
});

/** A bad body for each route, and the 400's message. The ids need not exist: the body is checked first. */
const cases: { method: string; path: string; body: unknown; error: string }[] = [
  {
    method: "POST",
    path: "/api/servers",
    body: { name: "x" },
    error: "config is missing: it must be an object.",
  },
  {
    method: "POST",
    path: "/api/servers",
    body: { name: 5, config: {} },
    error: "name must be a string, not a number.",
  },
  {
    method: "PUT",
    path: "/api/servers/nope",
    body: { name: "a", config: { command: "node" }, enabled: "no" },
    error: "enabled must be true or false, not a string.",
  },
  {
    method: "POST",
    path: "/api/servers/import",
    body: { document: 5 },
    error: "document must be the file's text (a string) or its JSON object.",
  },
  {
    method: "POST",
    path: "/api/servers/nope/tools/call",
    body: { name: "" },
    error: "name must be a non-empty string.",
  },
  {
    method: "POST",
    path: "/api/servers/nope/tools/call",
    body: { name: "echo", arguments: [1] },
    error: "arguments must be an object, not an array.",
  },
  {
    method: "POST",
    path: "/api/servers/nope/resources/read",
    body: {},
    error: "uri must be a non-empty string.",
  },
  {
    method: "POST",
    path: "/api/servers/nope/prompts/get",
    body: { name: "greet", arguments: { who: 1 } },
    error: "arguments.who must be a string, not a number.",
  },
  {
    method: "POST",
    path: "/api/servers/nope/complete",
    body: { ref: { type: "ref/resource" }, argument: { name: "a" } },
    error: "ref.uri must be a non-empty string.",
  },
  {
    method: "POST",
    path: "/api/servers/nope/apps",
    body: { tool: ["show"] },
    error: "tool must be a string, not an array.",
  },
  {
    method: "POST",
    path: "/api/apps/nope/approvals/nope",
    body: { approve: 1 },
    error: "approve must be true or false, not a number.",
  },
  {
    method: "POST",
    path: "/api/elicitations/nope",
    body: { action: "maybe" },
    error: 'action must be one of "accept", "decline", "cancel", not "maybe".',
  },
  {
    method: "POST",
    path: "/api/elicitations/nope",
    body: { action: "accept", content: { name: { first: "Ada" } } },
    error: "content.name must be a string, number, boolean or list of strings.",
  },
  {
    method: "POST",
    path: "/api/settings",
    body: { openaiCompatibleModel: 4 },
    error: "openaiCompatibleModel must be a string, not a number.",
  },
  {
    method: "POST",
    path: "/api/conversations",
    body: { provider: true },
    error: "provider must be a string, not a boolean.",
  },
  {
    method: "POST",
    path: "/api/conversations",
    body: { codeMode: true },
    error: 'codeMode must be one of "off", "sandbox", "provider", not true.',
  },
  {
    method: "PUT",
    path: "/api/conversations/nope/code-mode",
    body: { mode: "everywhere" },
    error: 'mode must be one of "off", "sandbox", "provider", not "everywhere".',
  },
  {
    method: "PUT",
    path: "/api/conversations/nope/code-mode",
    body: { mode: "sandbox", model: 5 },
    error: "model must be a string, not a number.",
  },
  {
    method: "POST",
    path: "/api/conversations/nope/messages",
    body: {},
    error: "text is missing: it must be a string.",
  },
  {
    method: "PUT",
    path: "/api/conversations/nope/output-schema",
    body: { schema: [{ type: "object" }] },
    error: "The output schema must be a JSON object (a JSON Schema), or null to clear it.",
  },
  {
    method: "POST",
    path: "/api/conversations/nope/approvals/call_1",
    body: { approve: "yes" },
    error: "approve must be true or false, not a string.",
  },
  {
    method: "POST",
    path: "/api/conversations/nope/approvals/call_1",
    body: { approve: false, reason: 7 },
    error: "reason must be a string, not a number.",
  },
  { method: "POST", path: "/api/runs/nope/stop", body: [], error: "The request body must be a JSON object." },
];

describe("a request body that fails its schema", () => {
  it.each(cases)("$method $path $body: $error", async ({ method, path, body, error }) => {
    expect(await test.api(method, path, body)).toEqual({ status: 400, body: { error } });
  });

  it("changes nothing: no server is added, no conversation made, the settings stay", async () => {
    const settings = (await test.api("GET", "/api/state")).body.settings;
    for (const { method, path, body } of cases) await test.api(method, path, body);
    expect((await test.api("GET", "/api/servers")).body).toEqual([]);
    expect((await test.api("GET", "/api/conversations")).body).toEqual([]);
    expect((await test.api("GET", "/api/state")).body.settings).toEqual(settings);
  });
});
