import type {
  FinishReason,
  Message,
  ToolCallPart,
  ToolCallProgram,
  ToolResult,
  ToolResultMessagePart,
  Usage,
  Warning,
} from "@junction/types";
import type { PendingToolCall, RunState } from "./run-state.js";
import type { RequestSize } from "./token-estimate.js";

export type { PendingToolCall };

/**
 * One tool a `search_tools` call found, as its result's `structuredContent.results` and the
 * `tool-search` event carry it.
 */
export interface ToolSearchResult {
  name: string;
  /**
   * How well the tool fits the query, 0 to 1 (two decimals): its BM25 score over the largest
   * score any tool could get for the query (see core's README, "Tool search").
   */
  score: number;
  /** `score` in a word: `high` (≥ `MIN_RELEVANCE`, 0.38: it loads as found), `medium` (≥ `MIN_CLOSEST_RELEVANCE`, 0.2) or `low`. */
  confidence: "high" | "medium" | "low";
}

/** The program a nested call was made by: the program call's id, and the call's sequence number (1, 2, …) in it. */
export interface NestedCallOf {
  id: string;
  sequence: number;
}

/**
 * What a run streams, noun-verb. `tool-input-delta` while a call's arguments stream (where the
 * model streams them); `tool-call` as soon as a call's arguments are complete (the tool may
 * already be starting); `tool-progress` while it runs, if the tool reports progress;
 * `tool-result` when it is done, in completion order.
 */
export type AgentEvent =
  | { type: "text-delta"; text: string }
  | { type: "reasoning-delta"; text: string }
  | {
      /**
       * A piece of a tool call's arguments as the model streams them, before its `tool-call`: the
       * call's `id` (the one its `tool-call` has) and tool `name`, the text added since the call's
       * previous `tool-input-delta` (`delta`) and the raw argument JSON so far (`inputText`,
       * incomplete: read it with `parsePartialJSON`, and treat it as the model's untrusted text).
       * Sent only for calls whose arguments stream in more than one piece (from the second piece
       * on; the first event's `delta` holds both), none after the call's `tool-call`, none for a
       * replayed step or for the structured answer's tool. If a model gives two calls of one turn the same id and streams
       * them interleaved, the pieces may carry the id the other call ends up with.
       */
      type: "tool-input-delta";
      id: string;
      name: string;
      delta: string;
      inputText: string;
    }
  | {
      type: "tool-call";
      id: string;
      name: string;
      input: unknown;
      /** Set for a call a program made (code mode): the program's call id and this call's sequence number in it. */
      parent?: NestedCallOf;
      /**
       * Set for a call a program the model's vendor ran made (provider-mode code mode): that
       * program as the vendor named it, its source when the vendor said it (the call's `program`).
       */
      program?: ToolCallProgram;
    }
  | {
      type: "tool-approval-request";
      id: string;
      name: string;
      input: unknown;
      /**
       * The signal that answers this question on the run's durability port:
       * `approval:<step>:<callId>`. On a durable engine (`@junction/dbos`, `@junction/restate`)
       * the answer comes from outside: send this signal to the run with `{ approved: true }` or
       * `{ approved: false, reason }` from any process (better: list the run's waiting calls with
       * the engine's `pendingApprovals` and answer one with its `answerApproval`). There the event
       * is the in-process view of the wait and fires again in every process that replays it; to
       * notify a person once per call, use the engine's `onApprovalRequested`.
       */
      signal: string;
      /**
       * Why a person is asked when the approval policy alone would not have asked: set when the
       * exfiltration guard turned an approval into a question (an open-world call after the
       * conversation read private data). Show it beside the arguments.
       */
      reason?: string;
      /**
       * The call as a pending approval, the same item everywhere one is listed (`RunState.pending`,
       * the durable engines' `pendingApprovals`, a served agent's input requests): step, call id,
       * tool, validated arguments and the digests an answer is bound to. Its key is
       * `approvalKey(item)`.
       */
      item: PendingToolCall;
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
      /** Set for a call a program made (code mode), as on its `tool-call`. */
      parent?: NestedCallOf;
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
  | {
      /**
       * A `search_tools` call (call `id`): the model's query, the tools found with how well each
       * fits, those loaded (sent from the next step on), and whether nothing fitted well
       * (`nothingFits`: below `toolSearch.minRelevance`; then at most the closest 3 are loaded, or
       * under `toolSearch.minClosestRelevance` the closest one of at most 10 deferred tools or of
       * a search with `toolSearch.embed`, and none of more ranked by words alone). Comes before
       * the call's `tool-result`.
       */
      type: "tool-search";
      id: string;
      query: string;
      results: ToolSearchResult[];
      loaded: string[];
      nothingFits: boolean;
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

/** What every run's result holds, however it ended. */
export interface AgentResultBase {
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
}

/** The result of a run that ended: the model answered, or a limit cut it short. */
export interface AgentFinishedResult<Output = unknown> extends AgentResultBase {
  finishReason: Exclude<AgentFinishReason, "approval-required">;
  /**
   * With an `output` schema: the answer, parsed and validated. Absent when the run stopped before
   * the model answered (`max-steps`); a run whose answer stays invalid, is refused or is cut off
   * rejects with an `OutputError` instead.
   */
  output?: Output;
  /** Only a stopped run has calls waiting. */
  pending?: undefined;
  /** Only a stopped run has a state to resume. */
  state?: undefined;
}

/** The result of a run that stopped because calls wait for a decision nobody gave in this process. */
export interface AgentStoppedResult extends AgentResultBase {
  finishReason: "approval-required";
  /** The model has not answered yet. */
  output?: undefined;
  /** The calls waiting for a decision. */
  pending: PendingToolCall[];
  /**
   * The whole stopped run as versioned JSON. Store it, and continue with
   * `agent.resume({ state, decisions: { [callId]: "approve" | "deny" | { deny: reason } } })` in
   * this or any other process. Every stopped run has one: a run on a durable engine's
   * `durability` port waits on the engine instead and stops only when an `approvalTimeoutMs` you
   * set runs out; its run on the engine ends there (an answer sent to the engine afterwards is
   * not read), and its state holds what the engine journaled for the stopped step, so resuming
   * it runs no finished call and asks the model nothing again. Resume it without `durability`
   * (in memory); its calls keep the engine run's idempotency keys.
   */
  state: RunState;
}

/**
 * What `final` resolves to; `Output` is the structured answer's type (see `output`). Narrow on
 * `finishReason`: with `"approval-required"`, `pending` and `state` are there; otherwise neither is.
 *
 * @example
 * ```ts
 * const result = await agent.send("Tidy my notes").final;
 * if (result.finishReason === "approval-required") await db.save(JSON.stringify(result.state));
 * else console.log(result.text, result.output);
 * ```
 */
export type AgentResult<Output = unknown> = AgentFinishedResult<Output> | AgentStoppedResult;

/**
 * A running `send()` (or `stream()`): iterate it for events, await `final` for the result.
 * Events are buffered, so reading late loses nothing, and several readers each see them all.
 * On failure or abort the stream ends with an `error` event and `final` rejects.
 */
export interface AgentHandle<Output = unknown> extends AsyncIterable<AgentEvent> {
  final: Promise<AgentResult<Output>>;
}
