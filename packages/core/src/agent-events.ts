import type {
  FinishReason,
  Message,
  ToolCallPart,
  ToolResult,
  ToolResultMessagePart,
  Usage,
  Warning,
} from "@junction/types";
import type { PendingToolCall, RunState } from "./run-state.js";
import type { RequestSize } from "./token-estimate.js";

export type { PendingToolCall };

/**
 * What a run streams, noun-verb. `tool-call` comes as soon as a call's arguments are complete
 * (the tool may already be starting); `tool-progress` while it runs, if the tool reports
 * progress; `tool-result` when it is done, in completion order.
 */
export type AgentEvent =
  | { type: "text-delta"; text: string }
  | { type: "reasoning-delta"; text: string }
  | { type: "tool-call"; id: string; name: string; input: unknown }
  | {
      type: "tool-approval-request";
      id: string;
      name: string;
      input: unknown;
      /**
       * The signal that answers this question on the run's durability port:
       * `approval:<step>:<callId>`. On a durable engine (`@junction/dbos`, `@junction/restate`)
       * the answer comes from outside: send this signal to the run with `{ approved: true }` or
       * `{ approved: false, reason }` from any process.
       */
      signal: string;
      /**
       * Why a person is asked when the approval policy alone would not have asked: set when the
       * exfiltration guard turned an approval into a question (an open-world call after the
       * conversation read private data). Show it beside the arguments.
       */
      reason?: string;
      /** Runs the call. The first answer counts. */
      approve(): void;
      /** Refuses the call; the model gets an error result carrying `reason`. */
      deny(reason?: string): void;
    }
  | {
      /**
       * A running call's progress report (for an MCP tool, the server's `notifications/progress`),
       * for the call with this `id` (unique in the conversation, as in `tool-call`). Bounded: the
       * first report comes at once, then at most one per call every 100 ms, the latest; none comes
       * after the call's `tool-result`. Checked as untrusted input: `progress` and `total` are
       * finite numbers, `message` is at most 500 characters (not otherwise cleaned: escape it
       * before showing it).
       */
      type: "tool-progress";
      id: string;
      name: string;
      progress: number;
      /** What `progress` counts towards, when the tool knows. */
      total?: number;
      message?: string;
    }
  | {
      type: "tool-result";
      id: string;
      name: string;
      result: ToolResult;
      durationMs: number;
      /** How the call ended: `success`, `error` (the tool failed), or why it never ran. */
      outcome?: ToolCallOutcome;
    }
  | {
      /**
       * The structured answer as far as it has streamed (a run with `output`): the object read from
       * the incomplete JSON, not validated yet. Sent when it changes.
       */
      type: "output-delta";
      partial: unknown;
    }
  | {
      /** The structured answer, parsed and validated against the output schema; `final.output` holds it too. */
      type: "output";
      output: unknown;
    }
  | {
      type: "step-end";
      step: number;
      usage: Usage;
      /**
       * The step's model request measured by Junction's token estimator: tool definitions, the
       * rest of the history, tool results, and the model's window. Absent on a replayed step.
       */
      request?: RequestSize;
    }
  | { type: "warning"; warning: Warning }
  | { type: "finish"; reason: AgentFinishReason; usage: Usage }
  | { type: "error"; error: Error };

/**
 * How a tool call ended: it ran (`success`, or `error` when the tool failed or said `isError`),
 * or it never ran: `denied` (by the policy, a person or a resume decision), `invalid-input`
 * (arguments that do not match the schema) or `not-found` (no such tool).
 */
export type ToolCallOutcome = "success" | "error" | "denied" | "invalid-input" | "not-found";

/**
 * Why a run ended: the model's own reason for its last turn, `max-steps` when the step limit cut
 * it short, or `approval-required` when calls wait for a decision nobody gave in this process
 * (see `AgentResult.pending` and `AgentResult.state`).
 */
export type AgentFinishReason = FinishReason | "max-steps" | "approval-required";

/** One model turn and the tool calls it made. */
export interface Step {
  /** 1-based. */
  step: number;
  /** The text the model wrote in this turn. */
  text: string;
  /** The reasoning text the model exposed in this turn. */
  reasoning: string;
  toolCalls: ToolCallPart[];
  /** In the order the model asked for the calls. */
  toolResults: ToolResultMessagePart[];
  finishReason: FinishReason;
  usage: Usage;
  warnings: Warning[];
  /** The vendor's response id, where it has one. */
  responseId?: string;
  /** The model's refusal, where the vendor reported one apart from the text. */
  refusal?: string;
}

/** What `final` resolves to; `Output` is the structured answer's type (see `output`). */
export interface AgentResult<Output = unknown> {
  /** The text of the last model turn: the answer. */
  text: string;
  /**
   * The whole conversation after the run, plain JSON. The array is yours; the messages in it are
   * frozen (read-only, shared with the Agent and later results rather than copied per run): take
   * `agent.messages` for a copy to change.
   */
  messages: Message[];
  steps: Step[];
  /** Summed over every step. */
  usage: Usage;
  warnings: Warning[];
  finishReason: AgentFinishReason;
  /**
   * With an `output` schema: the answer, parsed and validated. Absent when the run stopped before
   * the model answered (`approval-required`, `max-steps`); a run whose answer stays invalid, is
   * refused or is cut off rejects with an `OutputError` instead.
   */
  output?: Output;
  /** With `approval-required`: the calls waiting for a decision. */
  pending?: PendingToolCall[];
  /**
   * With `approval-required`: the whole stopped run as versioned JSON. Store it, and continue
   * with `agent.resume(state, { [callId]: "approve" | "deny" | { deny: reason } })` in this or
   * any other process.
   */
  state?: RunState;
}

/**
 * A running `send()` (or `stream()`): iterate it for events, await `final` for the result.
 * Events are buffered, so reading late loses nothing, and several readers each see them all.
 * On failure or abort the stream ends with an `error` event and `final` rejects.
 */
export interface AgentHandle<Output = unknown> extends AsyncIterable<AgentEvent> {
  final: Promise<AgentResult<Output>>;
}
