import { tool } from "@junction/core";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { rawRequest, waitForTask } from "../test/raw-request.js";
import { createMCPServer } from "./mcp-server.js";
import { type RunningHTTPServer, serveHTTP } from "./node.js";
import { servedContext } from "./served-context.js";
import { withTaskSupport } from "./task-support.js";

// What a 2026-07-28 client answers a served tool's form question (an input request of its task,
// or of an input_required round) is untrusted input: content that does not fit the question's
// requestedSchema is refused, as the SDK refuses it within a 2025-11-25 call, and never reaches
// the tool.

const running: RunningHTTPServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

/** Asks which format (pdf or html), then publishes the report once. */
function publisher(name: string, published: string[]) {
  return tool({
    name,
    description: "Asks the format, then publishes the report",
    schema: z.object({ title: z.string() }),
    execute: async ({ title }, context) => {
      const served = servedContext(context);
      if (!served) throw new Error(`${name}: not called through the server`);
      const format = await served.elicit(
        {
          mode: "form",
          message: `Which format for "${title}"?`,
          requestedSchema: {
            type: "object",
            properties: { format: { type: "string", enum: ["pdf", "html"] } },
            required: ["format"],
          },
        },
        { key: "format" },
      );
      const chosen = String(format.content?.format);
      published.push(`${title}.${chosen}`);
      return `Published ${title} as ${chosen}`;
    },
  });
}

async function servePublishers(published: string[]) {
  const server = await serveHTTP(
    createMCPServer({
      name: "publisher",
      version: "1.0.0",
      stateKey: "a test key that is 32 bytes long!!",
      tasks: { pollIntervalMs: 20 },
      tools: [
        withTaskSupport(publisher("publish_report", published), "required"),
        publisher("publish_now", published),
      ],
    }),
  );
  running.push(server);
  return server.url;
}

const OFF_SCHEMA = { format: { action: "accept", content: { format: "../../report.exe" } } };
const REFUSAL = /The client's answer to "format" does not fit the question's requestedSchema \(.+\)/;

describe("a client's answer to a served tool's question is checked against its requestedSchema", () => {
  it("in a task (tasks/update): the task ends with the tool's error naming the key; the tool never gets it", async () => {
    const published: string[] = [];
    const url = await servePublishers(published);
    const created = await rawRequest(url, {
      method: "tools/call",
      params: { name: "publish_report", arguments: { title: "Q3" } },
    });
    const taskId = created.result?.taskId as string;
    await waitForTask(url, taskId, "input_required");
    const update = await rawRequest(url, {
      method: "tasks/update",
      params: { taskId, inputResponses: OFF_SCHEMA },
    });
    expect(update.error).toBeUndefined();
    const done = await waitForTask(url, taskId, "completed");
    const result = done.result as { isError?: boolean; content: { text: string }[] };
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(REFUSAL);
    expect(published).toEqual([]);
  });

  it("in an input_required round (tools/call retry): the call's error names the key; the tool never gets it", async () => {
    const published: string[] = [];
    const url = await servePublishers(published);
    const call = { name: "publish_now", arguments: { title: "Q3" } };
    const round = await rawRequest(url, { method: "tools/call", params: call }, { tasks: false });
    expect(round.result).toMatchObject({ resultType: "input_required", inputRequests: { format: {} } });
    const retry = await rawRequest(
      url,
      {
        method: "tools/call",
        params: { ...call, requestState: round.result?.requestState, inputResponses: OFF_SCHEMA },
      },
      { tasks: false },
    );
    const result = retry.result as { isError?: boolean; content: { text: string }[] };
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(REFUSAL);
    expect(published).toEqual([]);
  });
});
