// What the Restate server itself says of a workflow run, read through its admin API's SQL
// introspection (`sys_invocation`, `sys_journal`): which steps it journaled as finished, and how it
// retries the run. The tests wait on these facts instead of sleeping until they are probably
// true. Never imported by shipped code.
import type { RestateServer } from "@junction/durable-engines/restate-server";

/** A run of a workflow: its name and key. */
export interface WorkflowRun {
  readonly workflow: string;
  readonly runId: string;
}

/** The run's invocation as `sys_invocation` has it (the columns the tests read). */
export interface RunInvocation {
  readonly id: string;
  readonly status: string;
  readonly retry_count: number | null;
  readonly last_start_at: string | null;
  readonly next_retry_at: string | null;
}

const quoted = (value: string) => `'${value.replaceAll("'", "''")}'`;

/** The run's `run` invocation; `undefined` before the server has it. */
export async function runInvocation(
  server: Pick<RestateServer, "query">,
  run: WorkflowRun,
): Promise<RunInvocation | undefined> {
  const [row] = await server.query<RunInvocation>(
    `SELECT id, status, retry_count, last_start_at, next_retry_at FROM sys_invocation WHERE target_service_name = ${quoted(run.workflow)} AND target_service_key = ${quoted(run.runId)} AND target_handler_name = 'run'`,
  );
  return row;
}

interface JournalRow {
  readonly index: number;
  readonly entry_type: string;
  readonly name: string | null;
  readonly entry_lite_json: string | null;
}

/**
 * The names of the steps (`ctx.run`) the server journaled as finished for the run, in the order
 * they were started: a step whose result the server has not stored yet is not listed. What DBOS's
 * `listWorkflowSteps` gives for a DBOS run.
 */
export async function journaledSteps(
  server: Pick<RestateServer, "query">,
  run: WorkflowRun,
): Promise<string[]> {
  const invocation = await runInvocation(server, run);
  if (invocation === undefined) return [];
  const rows = await server.query<JournalRow>(
    `SELECT index, entry_type, name, entry_lite_json FROM sys_journal WHERE id = ${quoted(invocation.id)} ORDER BY index`,
  );
  const started: { name: string; completion: number }[] = [];
  const completed = new Set<number>();
  for (const row of rows) {
    const entry = JSON.parse(row.entry_lite_json ?? "{}") as {
      Command?: { Run?: { completion_id?: number; name?: string } };
      Notification?: { ty?: { Completion?: string }; id?: { CompletionId?: number } };
    };
    const command = entry.Command?.Run;
    if (command !== undefined) {
      if (typeof command.completion_id !== "number") {
        throw new Error(
          `The journal of ${run.workflow}/${run.runId} has a run entry without a completion id: ${row.entry_lite_json}`,
        );
      }
      started.push({ name: command.name ?? row.name ?? "", completion: command.completion_id });
    }
    const notification = entry.Notification;
    if (notification?.ty?.Completion === "Run" && typeof notification.id?.CompletionId === "number") {
      completed.add(notification.id.CompletionId);
    }
  }
  return started.filter((step) => completed.has(step.completion)).map((step) => step.name);
}
