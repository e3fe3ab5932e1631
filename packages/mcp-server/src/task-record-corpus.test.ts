import { readdirSync, readFileSync } from "node:fs";
import { Agent, tool } from "@junction/core";
import { scriptedModel } from "@junction/core/testing";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  corpusAuth,
  corpusRequest,
  corpusServer,
  taskScenarios,
  taskWhen,
} from "./__fixtures__/task-record/scenarios.js";
import { type AgentTaskRecord, agentTool, createMCPServer, InMemoryTaskStore } from "./index.js";
import { type RunningHTTPServer, serveHTTP } from "./node.js";

// The stored task-record corpus: records an earlier Junction stored (never edited since), signed
// with a fixed test stateKey. A server of today with that key and a store holding them must
// answer for each through the public API: tasks/get, and for the waiting one tasks/update, which
// resumes its run.

const api = { Agent, tool, scriptedModel, z, agentTool, createMCPServer, InMemoryTaskStore };
const folder = new URL("./__fixtures__/task-record/", import.meta.url);

function stored(file: string): AgentTaskRecord {
  return JSON.parse(readFileSync(new URL(`${file}.json`, folder), "utf8")) as AgentTaskRecord;
}

const running: RunningHTTPServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

/** A server of today holding every stored record; its agent answers with `responses`. */
async function serveCorpus(responses: unknown[], opened: string[]) {
  const records = taskScenarios.map((scenario) => stored(scenario.file));
  const store = new InMemoryTaskStore(records);
  const served = await serveHTTP(corpusServer(api, { store, responses, opened }), { auth: corpusAuth });
  running.push(served);
  return { url: served.url, records };
}

describe("the stored task-record corpus", () => {
  it("has a scenario for every stored file, and a file for every scenario", () => {
    const files = readdirSync(folder)
      .filter((name) => name.endsWith(".json"))
      .map((name) => name.slice(0, -".json".length))
      .sort();
    expect(files).toEqual(taskScenarios.map((scenario) => scenario.file).sort());
  });

  it.each(taskScenarios)("$file is answered by tasks/get with its status", async (scenario) => {
    const { url } = await serveCorpus([], []);
    const { taskId } = stored(scenario.file);
    const answer = await corpusRequest(url, "tasks/get", { taskId });
    expect(answer.error).toBeUndefined();
    expect(answer.result).toMatchObject({ taskId, status: scenario.status });
    if (scenario.status === "completed") {
      expect(JSON.stringify(answer.result)).toContain(JSON.stringify(scenario.text));
    }
    if (scenario.status === "input_required") {
      expect(Object.keys((answer.result?.inputRequests as object) ?? {})).toHaveLength(1);
    }
  });

  it("the waiting record resumes on tasks/update: the approved call runs once and the task completes", async () => {
    const scenario = taskScenarios.find((candidate) => candidate.status === "input_required")!;
    const opened: string[] = [];
    const { url } = await serveCorpus(scenario.after!, opened);
    const { taskId } = stored(scenario.file);
    const waiting = await corpusRequest(url, "tasks/get", { taskId });
    const keys = Object.keys((waiting.result?.inputRequests as object) ?? {});
    expect(keys).toHaveLength(1);
    const inputResponses = Object.fromEntries(keys.map((key) => [key, { action: "accept", content: {} }]));
    const updated = await corpusRequest(url, "tasks/update", { taskId, inputResponses });
    expect(updated.error).toBeUndefined();
    const done = await taskWhen(url, taskId, "completed");
    expect(done?.status).toBe("completed");
    expect(JSON.stringify(done)).toContain(JSON.stringify(scenario.text));
    expect(opened).toEqual(scenario.opensOnAnswer);
  });

  it("a stored record changed since it was signed is not served", async () => {
    const changed = { ...stored("v1-completed"), statusMessage: "Changed" };
    const store = new InMemoryTaskStore([changed]);
    const served = await serveHTTP(corpusServer(api, { store, responses: [], opened: [] }), {
      auth: corpusAuth,
    });
    running.push(served);
    const answer = await corpusRequest(served.url, "tasks/get", { taskId: changed.taskId });
    expect(answer.result).toBeUndefined();
    // The wording is the task path's; what counts here is that the record is refused, by id.
    expect(answer.error).toMatchObject({ code: -32602, message: expect.stringContaining(changed.taskId) });
  });
});
