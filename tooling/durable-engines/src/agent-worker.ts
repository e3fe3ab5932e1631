// The worker half of the Agent crash tests and the resume benchmark: the Agent a worker process
// makes per run, written once and run on every engine. A real provider package (Chat
// Completions) pointed at a wire fake in the test's process, a real MCP server over stdio
// through an MCPPool, and annotationPolicy(), under which the server's unannotated `save_note`
// asks. The worker records each approval question it surfaces, so the test (in its own process)
// knows when the run waits and which signal answers it. The test half is agent-scenario.ts.
// Never imported by shipped code.
import { appendFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Agent, annotationPolicy } from "@junction/core";
import { MCPPool } from "@junction/mcp-client";
import { chatCompletions } from "@junction/provider-chatcompletions";

/** What the user asks, the note the model saves, and the answer the run must end with. */
export const notesRun = {
  input: "Note: buy milk",
  note: "buy milk",
  answer: 'Noted: saved "buy milk"',
} as const;

/** The MCP server's script: a stdio server whose `save_note` appends a line per call to CALLS_FILE. */
export const notesServer = fileURLToPath(new URL("../test-servers/notes-server.mjs", import.meta.url));

/** The line a worker appends to the events file when its run asks for an approval. */
export const ASKED = "approval requested ";

/**
 * What a worker process runs per run: a new Agent on the model at `modelURL`, with the notes
 * server from `pool` (connected once per process, shared by every run on it), asking before
 * `save_note` runs, and recording each question's signal in `eventsFile`.
 */
export function notesAgent(options: {
  modelURL: string;
  callsFile: string;
  eventsFile: string;
  pool: MCPPool;
}) {
  return async (): Promise<Agent> => {
    const notes = await options.pool.get({
      transport: "stdio",
      command: process.execPath,
      args: [notesServer],
      env: { CALLS_FILE: options.callsFile },
    });
    return new Agent({
      provider: chatCompletions({ baseURL: options.modelURL, apiKey: "test" }),
      model: "fake",
      mcps: [notes],
      approval: annotationPolicy(),
      onEvent: (event) => {
        if (event.type === "tool-approval-request")
          appendFileSync(options.eventsFile, `${ASKED}${event.signal}\n`);
      },
    });
  };
}

/** The worker side, from its environment: MODEL_URL, CALLS_FILE, EVENTS_FILE. */
export function notesAgentFromEnvironment(): { makeAgent: () => Promise<Agent>; pool: MCPPool } {
  const pool = new MCPPool();
  const makeAgent = notesAgent({
    modelURL: process.env.MODEL_URL!,
    callsFile: process.env.CALLS_FILE!,
    eventsFile: process.env.EVENTS_FILE!,
    pool,
  });
  return { makeAgent, pool };
}
