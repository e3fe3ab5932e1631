import { fileURLToPath } from "node:url";
import { DBOS, DBOSClient } from "@dbos-inc/dbos-sdk";
import { Agent, type AgentResult } from "@junction/core";
import { scriptedModel } from "@junction/core/testing";
import { type Postgres, startPostgres } from "@junction/durable-engines/postgres";
import { waitFor } from "@junction/durable-engines/processes";
import { readmeSnippet, runSnippet } from "@junction/durable-engines/readme-snippets";
import type { Tool } from "@junction/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dbosAgentWorkflow } from "./dbos-agent-workflow.js";

// The README's approve.ts (wait until the run asks, and answer), taken from README.md and run as
// written (one file, node, a process of its own with only the system database's URL) against a
// real DBOS on a real PostgreSQL, with the `assistant` workflow run in this process (a scripted
// model in place of Anthropic's). The run asks only once the snippet is already waiting, so a
// snippet that read the list at once (and found `[]`) would answer nothing.

const packageDir = fileURLToPath(new URL("..", import.meta.url));
let postgres: Postgres;
let systemDatabaseUrl: string;
let client: DBOSClient;
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

const assistant = dbosAgentWorkflow("assistant", async () => {
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
  postgres = await startPostgres();
  systemDatabaseUrl = postgres.url("junction_dbos_readme");
  DBOS.setConfig({ name: "assistant", systemDatabaseUrl, logLevel: "error" });
  await DBOS.launch();
  client = await DBOSClient.create({ systemDatabaseUrl });
});
afterAll(async () => {
  await client?.destroy();
  await DBOS.shutdown();
  postgres?.stop();
});

describe("the README's snippets, run as written", () => {
  it("approve.ts waits through a run that has not asked yet, approves the call once, and the run ends", async () => {
    await assistant.start({ input: "Note: buy milk" }, { runId: "readme-run" });
    const code = readmeSnippet(`${packageDir}/README.md`, "waitForApprovals");
    const snippet = runSnippet({
      packageDir,
      name: "approve.ts",
      code,
      env: { DBOS_SYSTEM_DATABASE_URL: systemDatabaseUrl },
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
      ]);
      const final = await client
        .retrieveWorkflow<AgentResult>("readme-run")
        .getResult({ pollingIntervalMs: 50 });
      expect(final.text).toBe("Noted: buy milk.");
      expect(saved).toEqual(["buy milk"]);
    } finally {
      await snippet.kill();
      snippet.remove();
    }
  });
});
