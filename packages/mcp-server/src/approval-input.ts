import { approvalKey, type PendingToolCall, type ResumeDecision } from "@junction/core";
import type { ElicitRequestFormParams } from "@modelcontextprotocol/server";

// A pending approval as an MCP elicitation a client shows a person, and the person's answer as a
// resume decision. Pure: the transports (elicitation within a call, input_required, a task's
// input request) only carry these.

// The input-request key of a pending call (what an answer must be filed under to count for it)
// is core's one approval key, `approval:<step>:<callId>`.
export { approvalKey };

/** The longest argument text shown in an approval's message; longer ones are cut. */
const MAX_ARGUMENTS_TEXT = 4_000;

/**
 * The form elicitation that asks a person about one pending call: the agent tool, the tool the
 * agent wants to call, its arguments and the reason (when the exfiltration guard asked). Accept
 * approves, decline denies; a note typed in the form goes back to the model with a denial.
 */
export function approvalElicitation(agentTool: string, item: PendingToolCall): ElicitRequestFormParams {
  let shown = JSON.stringify(item.input ?? {}, null, 2) ?? "{}";
  if (shown.length > MAX_ARGUMENTS_TEXT) shown = `${shown.slice(0, MAX_ARGUMENTS_TEXT)}\n… (cut)`;
  const lines = [
    `The agent behind "${agentTool}" wants to call the tool "${item.name}"${item.source ? ` of ${item.source}` : ""} with:`,
    shown,
  ];
  if (item.reason) lines.push(`Why you are asked: ${item.reason}`);
  lines.push("Accept to run the call, decline to refuse it.");
  return {
    mode: "form",
    message: lines.join("\n"),
    requestedSchema: {
      type: "object",
      properties: {
        note: {
          type: "string",
          title: "Note",
          description: "Optional: why you refuse the call (the agent is told).",
        },
      },
    },
    _meta: {
      "dev.junction/approval": {
        callId: item.id,
        tool: item.name,
        ...(item.argumentsDigest === undefined ? {} : { argumentsDigest: item.argumentsDigest }),
      },
    },
  };
}

/**
 * The decision an elicitation answer stands for: `accept` approves; `decline` and `cancel` (the
 * person closed the question) deny, with the note as the reason when one was given. Anything
 * else (not an elicitation result) gives `undefined`: no decision.
 */
export function decisionOf(answer: unknown): ResumeDecision | undefined {
  if (typeof answer !== "object" || answer === null) return undefined;
  const { action, content } = answer as { action?: unknown; content?: unknown };
  if (action === "accept") return "approve";
  if (action !== "decline" && action !== "cancel") return undefined;
  const note = (content as { note?: unknown } | undefined)?.note;
  if (typeof note === "string" && note.trim().length > 0) return { deny: note.trim().slice(0, 1_000) };
  return action === "cancel" ? { deny: "the person closed the question without answering" } : "deny";
}

/**
 * The decisions in a set of answers keyed by input-request key, for the given pending calls
 * only: an answer under a key no pending call has is not a decision (a client cannot approve a
 * call it was not asked about).
 */
export function decisionsFrom(
  pending: PendingToolCall[],
  answers: Record<string, unknown>,
): Record<string, ResumeDecision> {
  const decisions: Record<string, ResumeDecision> = {};
  for (const item of pending) {
    const key = approvalKey(item);
    if (!Object.hasOwn(answers, key)) continue;
    const decision = decisionOf(answers[key]);
    if (decision !== undefined) decisions[item.id] = decision;
  }
  return decisions;
}
