// The test half of the Agent crash tests and the resume benchmark: the model (a wire fake in
// the test's process), the worker's environment, and what the workers recorded. The worker half
// is agent-worker.ts. Never imported by shipped code.

import { ASKED, notesRun } from "@junction/durable-engines/agent-worker";
import { type NodeProcess, readLines, waitFor } from "@junction/durable-engines/processes";
import type { WireFake } from "@junction/wire-fake";
import { startChatCompletionsToolLoop } from "@junction/wire-fake/chat-completions-tool-loop";

export { notesRun };

/**
 * The model: one step asking for `save_note`, then (once the conversation holds its result) a
 * text answer built from it. Each request is recorded in `requests`: one per model step.
 */
export function startNotesModel(): Promise<WireFake> {
  return startChatCompletionsToolLoop({
    toolName: "save_note",
    toolSteps: 1,
    toolArguments: () => ({ text: notesRun.note }),
    finalText: (results) => `Noted: ${results.join("; ")}`,
  });
}

/** The test side: the questions the workers surfaced, the calls the MCP server saw, and waits on them. */
export function notesEventsOf(files: { eventsFile: string; callsFile: string }) {
  const questions = () =>
    readLines(files.eventsFile)
      .filter((line) => line.startsWith(ASKED))
      .map((line) => line.slice(ASKED.length));
  const calls = () =>
    readLines(files.callsFile).map((line) => JSON.parse(line) as { text: string; key: string | null });
  /** Waits until the run has asked `times` times (once per worker that reached the wait); the signal's name. */
  const reachApproval = async (times: number, worker: Pick<NodeProcess, "output">): Promise<string> => {
    await waitFor(() => questions().length >= times, {
      timeoutMs: 15_000,
      what: `the run to ask for approval (${times}); worker output:\n${worker.output()}`,
    });
    return questions()[times - 1]!;
  };
  return { questions, calls, reachApproval };
}

/** The environment of a worker process: the model's URL and the test's files. */
export function notesWorkerEnvironment(options: {
  model: WireFake;
  callsFile: string;
  eventsFile: string;
}): Record<string, string> {
  return { MODEL_URL: options.model.url, CALLS_FILE: options.callsFile, EVENTS_FILE: options.eventsFile };
}

/** How many tool results each model request carried: one request per model step. */
export function toolResultsPerRequest(model: WireFake): number[] {
  return model.requests.map(
    (request) =>
      (request.body.messages as { role: string }[]).filter((message) => message.role === "tool").length,
  );
}
