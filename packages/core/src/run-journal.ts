import type { AssistantContentPart, FinishReason, ToolResult, Usage } from "@junction/types";

/**
 * The keys and values a run journals through its `Durability` port: plain JSON, the same in
 * memory, in a `RunState` and in a durable engine's journal.
 */

/** The model's answer for one step: the content as stored in the history, and how the turn ended. */
export interface ModelTurnEntry {
  content: AssistantContentPart[];
  finish: { reason: FinishReason; usage: Usage; responseId?: string; refusal?: string };
}

/** A finished tool call: what goes back to the model, and how it went. */
export interface ToolCallEntry {
  output: string | ToolResult;
  durationMs: number;
  /** `success`, `error`, `denied`, `invalid-input`, `not-found`. */
  outcome: string;
  source?: string;
}

/** The approval policy's answer for a call, journaled so a replay does not ask again. */
export type GateEntry =
  | { kind: "run" }
  | {
      kind: "ask";
      /** The validated arguments, as shown to the person. */
      input: unknown;
      /** The arguments as the model sent them: on resume, both must still match. */
      callInput: unknown;
      reason?: string;
      source?: string;
    }
  | { kind: "refuse"; outcome: "denied" | "invalid-input" | "not-found"; message: string; source?: string };

/**
 * A person's answer to an approval request: the value of an approval signal. With `toolDigest`
 * or `argumentsDigest` (a listed `PendingToolCall`'s), the answer counts only for that tool and
 * those arguments: when the waiting call's differ, it is denied with a `run-state-mismatch`
 * warning.
 */
export type ApprovalAnswer = ({ approved: true } | { approved: false; reason?: string }) & {
  toolDigest?: string;
  argumentsDigest?: string;
};

export const modelKey = (step: number): string => `model:${step}`;
export const toolKey = (step: number, callId: string): string => `tool:${step}:${callId}`;
/** The tools offered in step `step`, as snapshots: a replay compares them with the tools it has now. */
export const toolsKey = (step: number): string => `tools:${step}`;
export const gateKey = (step: number, callId: string): string => `gate:${step}:${callId}`;
/** The signal that answers the approval of call `callId` in step `step`. */
export const approvalSignal = (step: number, callId: string): string => `approval:${step}:${callId}`;

/** The message a denied call gives the model. */
export function deniedMessage(toolName: string, reason: string | undefined): string {
  const trimmed = reason?.trim();
  const because = trimmed ? `: ${/[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`}` : ".";
  return `The call to tool "${toolName}" was denied${because} Do not call it again unless the user asks.`;
}
