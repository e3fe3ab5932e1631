import {
  type CallToolResult,
  ProtocolError,
  ProtocolErrorCode,
  RELATED_TASK_META_KEY,
} from "@modelcontextprotocol/server";
import type { AgentTasks } from "./agent-tasks.js";
import { approvalElicitation, approvalKey } from "./approval-input.js";
import { isRunLimitError } from "./in-process-runs.js";
import type { AskClient } from "./task-options.js";
import type { AgentTaskRecord } from "./task-store.js";
import type { UpstreamRequest, UpstreamRequests } from "./task-upstream.js";
import { isTerminal } from "./task-views.js";

// 2025-11-25 `tasks/result`, the one part of serving tasks that only that era has: the request
// waits for the task's end and, while it waits, asks its own client what the task needs of a
// person. Every answer it gets goes through the task layer like any other.

/**
 * Waits until the task ends and gives its `CallToolResult` (with the related-task `_meta`).
 * While it waits, what the task needs of a person goes to this request's client through `ask`:
 * an elicitation per pending approval (the answers filed by the server under the calls it asked
 * about, so a client cannot approve another call; none when the operator approves), and the
 * upstream requests of the run. Answers that would resume the run beyond the client's
 * `maxConcurrentRuns` are kept and sent again until a slot is free, not asked again. A cancelled
 * task, or one whose run failed outside the tool, is a JSON-RPC error.
 */
export async function legacyTaskResult(
  tasks: AgentTasks,
  request: { taskId: string; owner: string; ask: AskClient; signal: AbortSignal },
): Promise<CallToolResult> {
  const { taskId, owner, ask, signal } = request;
  // The pending calls this request answered last: a durable engine may show them pending a while
  // after the answer went in, and they are not asked again.
  let answered: string | undefined;
  // The answers a person gave that the client's run limit refused (`maxConcurrentRuns`), by the
  // round they answer: sent again, not asked again, until a run slot is free.
  let refused: { round: string | undefined; answers: Record<string, unknown> } | undefined;
  for (;;) {
    const record = await tasks.current(taskId, owner);
    if (record.status === "completed" && record.result) {
      const result = record.result;
      return { ...result, _meta: { ...(result._meta ?? {}), [RELATED_TASK_META_KEY]: { taskId } } };
    }
    if (record.status === "cancelled") {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidRequest,
        `The task "${taskId}" was cancelled before it finished: it has no result.`,
      );
    }
    if (isTerminal(record.status)) {
      throw new ProtocolError(
        record.error?.code ?? ProtocolErrorCode.InternalError,
        record.error?.message ?? `The task "${taskId}" failed.`,
      );
    }
    const upstream = tasks.upstreamOf(record);
    for (const waiting of upstream?.list() ?? []) {
      if (!waiting.asked && upstream) askUpstream(upstream, waiting, { taskId, ask, signal });
    }
    const round = record.pending?.map((item) => approvalKey(item)).join("\n");
    if (
      !tasks.operatorApproves &&
      record.status === "input_required" &&
      record.pending?.length &&
      round !== answered &&
      !tasks.asking.has(taskId)
    ) {
      tasks.asking.add(taskId);
      let answers: Record<string, unknown> | undefined;
      try {
        answers =
          refused !== undefined && refused.round === round
            ? refused.answers
            : await askApprovals(record, { taskId, ask });
        refused = undefined;
        await tasks.update(taskId, owner, answers);
        answered = round;
      } catch (error) {
        // Beyond the client's run limit nothing was answered: the answers are kept and sent again
        // once a slot may be free (one of the client's runs here gave its slot back, the task
        // moved, or the poll interval passed).
        if (!isRunLimitError(error) || !answers) throw error;
        refused = { round, answers };
      } finally {
        tasks.asking.delete(taskId);
      }
      if (refused) await tasks.changed(taskId, signal, { slotOf: owner });
      continue;
    }
    await tasks.changed(taskId, signal);
  }
}

/** Asks a 2025 client about each call the task waits for a person about; the answers, filed under the calls' keys. */
async function askApprovals(
  record: AgentTaskRecord,
  asker: { taskId: string; ask: AskClient },
): Promise<Record<string, unknown>> {
  const answers: Record<string, unknown> = {};
  for (const item of record.pending ?? []) {
    const params = approvalElicitation(record.tool, item);
    params._meta = { ...params._meta, [RELATED_TASK_META_KEY]: { taskId: asker.taskId } };
    answers[approvalKey(item)] = await asker.ask("elicitation/create", params as Record<string, unknown>);
  }
  return answers;
}

/** Asks a 2025 client an upstream request of the task's run, and hands the answer upstream. */
function askUpstream(
  upstream: UpstreamRequests,
  request: UpstreamRequest,
  asker: { taskId: string; ask: AskClient; signal: AbortSignal },
): void {
  request.asked = true;
  const meta = (request.params._meta as Record<string, unknown> | undefined) ?? {};
  const params = {
    ...request.params,
    _meta: { ...meta, [RELATED_TASK_META_KEY]: { taskId: asker.taskId } },
  };
  asker.ask(request.method, params).then(
    (answer) => upstream.answer({ [request.key]: answer }),
    (error: unknown) => {
      // A tasks/result that went away leaves the request to the next one; a client that cannot
      // answer it fails it, and the upstream server gets the error.
      if (asker.signal.aborted) upstream.release(request.key);
      else upstream.fail(request.key, error);
    },
  );
}
