// Writes the stored task-record corpus (src/__fixtures__/task-record/v1-*.json) with the built
// packages, each task driven over real HTTP to where it is stored:
//   pnpm --filter @junction/mcp-server... build && node packages/mcp-server/scripts/make-task-record-fixtures.ts
// Run it once per record version, commit what it writes, and never edit or rewrite those files:
// every later Junction must still serve them (task-record-corpus.test.ts).
import { existsSync, writeFileSync } from "node:fs";
import { Agent, tool } from "@junction/core";
import { scriptedModel } from "@junction/core/testing";
import { agentTool, createMCPServer, InMemoryTaskStore } from "@junction/mcp-server";
import { serveHTTP } from "@junction/mcp-server/node";
import { z } from "zod";
import {
  corpusAuth,
  corpusRequest,
  corpusServer,
  taskScenarios,
  taskWhen,
} from "../src/__fixtures__/task-record/scenarios.ts";

const api = { Agent, tool, scriptedModel, z, agentTool, createMCPServer, InMemoryTaskStore };
for (const scenario of taskScenarios) {
  const path = new URL(`../src/__fixtures__/task-record/${scenario.file}.json`, import.meta.url);
  if (existsSync(path)) {
    console.log(`kept ${scenario.file}.json (stored files are never rewritten)`);
    continue;
  }
  const store = new InMemoryTaskStore();
  const served = await serveHTTP(corpusServer(api, { store, responses: scenario.before, opened: [] }), {
    auth: corpusAuth,
  });
  try {
    const created = await corpusRequest(served.url, "tools/call", {
      name: "ask_keeper",
      arguments: { request: scenario.request },
    });
    const taskId = created.result?.taskId;
    if (typeof taskId !== "string") throw new Error(`${scenario.file}: no task: ${JSON.stringify(created)}`);
    const waitFor = scenario.status === "completed" ? "completed" : "input_required";
    const task = await taskWhen(served.url, taskId, waitFor);
    if (task?.status !== waitFor) throw new Error(`${scenario.file}: the task is ${JSON.stringify(task)}`);
    if (scenario.cancel) {
      await corpusRequest(served.url, "tasks/cancel", { taskId });
      const cancelled = await taskWhen(served.url, taskId, "cancelled");
      if (cancelled?.status !== "cancelled") throw new Error(`${scenario.file}: not cancelled`);
    }
    const records = await store.list();
    if (records.length !== 1) throw new Error(`${scenario.file}: ${records.length} records`);
    writeFileSync(path, `${JSON.stringify(records[0], null, 2)}\n`);
    console.log(`wrote ${scenario.file}.json`);
  } finally {
    await served.close();
  }
}
