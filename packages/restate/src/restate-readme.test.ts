import { createServer, type Http2Server } from "node:http2";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { Agent } from "@junction/core";
import { scriptedModel } from "@junction/core/testing";
import { waitFor } from "@junction/durable-engines/processes";
import { readmeSnippet, runSnippet } from "@junction/durable-engines/readme-snippets";
import { type RestateServer, startRestateServer } from "@junction/durable-engines/restate-server";
import type { Tool } from "@junction/types";
import * as restate from "@restatedev/restate-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { restateAgentWorkflow } from "./restate-agent-workflow.js";

// The README's "start a run, wait until it asks, and answer" snippet, taken from README.md and run
// as written (one file, node) against a real Restate server, with the `assistant` workflow served
// from this process (a scripted model in place of Anthropic's). The run asks only once the
// snippet is already waiting, so a snippet that read the list right after the submit (and found
// `[]`) would hang instead of answering.

const packageDir = fileURLToPath(new URL("..", import.meta.url));
let server: RestateServer;
let endpoint: Http2Server;
const saved: string[] = [];
let openGate = () => {};
const gate = new Promise<void>((resolve) => (openGate = resolve));

const saveNote: Tool<{ text: string }> = {
  name: "save_note",
  description: "Saves a note",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  execute: async ({ text }) => {
    saved.push(text);
    return `saved "${text}"`;
  },
};

const assistant = restateAgentWorkflow("assistant", async () => {
  await gate;
  return new Agent({
    provider: scriptedModel([
      { toolCalls: [{ id: "toolu_1", name: "save_note", input: { text: "buy milk" } }] },
      { text: "Noted: buy milk." },
    ]),
    model: "scripted",
    tools: [saveNote],
    approval: () => "ask",
  });
});

beforeAll(async () => {
  server = await startRestateServer();
  endpoint = createServer(restate.createEndpointHandler({ services: [assistant] }));
  await new Promise<void>((resolve) => endpoint.listen(0, "127.0.0.1", resolve));
  await server.register(`http://127.0.0.1:${(endpoint.address() as AddressInfo).port}`);
});
afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => endpoint?.close(resolve));
});

describe("the README's snippets, run as written", () => {
  it("start a run, wait until it asks, and answer: submits, waits through a run that has not asked yet, approves the call once and prints the run's answer", async () => {
    const code = readmeSnippet(`${packageDir}/README.md`, "waitForApprovals");
    const snippet = runSnippet({
      packageDir,
      name: "ask.ts",
      code,
      env: { RESTATE_INGRESS_URL: server.ingressUrl },
      args: ["readme-run"],
    });
    try {
      await waitFor(() => snippet.stdout().includes("Waiting for readme-run to ask…"), {
        timeoutMs: 20_000,
        what: `the snippet to wait; its output:\n${snippet.output()}`,
      });
      openGate();
      await snippet.exited();
      expect(snippet.stdout().trim().split("\n")).toEqual([
        "Waiting for readme-run to ask…",
        'save_note({"text":"buy milk"})',
        "taken",
        "Noted: buy milk.",
      ]);
      expect(saved).toEqual(["buy milk"]);
    } finally {
      await snippet.kill();
      snippet.remove();
    }
  });
});
