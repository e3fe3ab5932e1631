import type { ToolProgress, Usage } from "@junction/types";
import type { AgentEvent, ToolCallOutcome } from "./agent-events.js";
import type { RequestSize } from "./token-estimate.js";
import type { TraceCarrier } from "./trace-carrier.js";
import {
  carrierOf,
  endSpan,
  inSpan,
  type ModelCallInput,
  type Span,
  type SpanAttributes,
  type SpanOutcome,
  startSpan,
  type ToolCallProgramOf,
  type Tracer,
  traceEvent,
} from "./tracing.js";

/**
 * What the loop tells a run's spans of its own work, which no public event carries (a model call's
 * request and end, an execution's start and end, apart from the approval wait before it). The
 * public events carry the rest: `step-end` counts the steps, `tool-progress` marks an execution's
 * span, `finish` and `error` end the run. Internal: never emitted to the user.
 */
export type RunTraceEvent =
  | { type: "model-call-start"; step: number; request: RequestSize; input: () => ModelCallInput }
  | {
      type: "model-call-end";
      durationMs: number;
      finishReason: string;
      responseId?: string;
      usage: Usage;
    }
  | { type: "model-call-error"; error: Error }
  | {
      type: "tool-execute-start";
      id: string;
      name: string;
      step: number;
      /**
       * A program's call (code mode): its program. A sandbox's call's span is a child of the
       * program call's span; a vendor's program has no span here, so its call's is the run's child.
       */
      program?: ToolCallProgramOf;
    }
  | {
      type: "tool-execute-end";
      id: string;
      outcome: ToolCallOutcome | "pending";
      server?: string;
      durationMs: number;
      /** Why a call that ran did not succeed, for the span's status. */
      statusMessage?: string;
    }
  | { type: "tool-execute-abort"; id: string; error: Error };

/** Whose span is current while a piece of the run's work runs, so what it calls (an MCP request) nests under it. */
export type SpanScope = { kind: "run" } | { kind: "model-call" } | { kind: "tool-call"; id: string };

/**
 * A run's spans, derived in this one place from the run's events: `junction.agent.send` for the
 * run, `junction.model.call` per model turn and `junction.tool.call` per execution, each with its
 * typed operation and outcome (and, for tracers without `setOutcome`, the `junction.*`
 * attributes). The loop reports events and runs work `within` a scope; it never opens a span.
 */
export class RunSpans {
  readonly #tracer: Tracer | undefined;
  readonly #provider: string;
  readonly #model: string;
  readonly #run: Span;
  #modelCall: { span: Span } | undefined;
  readonly #tools = new Map<string, Span>();
  #steps = 0;

  constructor(
    tracer: Tracer | undefined,
    run: { provider: string; model: string; resumedFrom?: TraceCarrier },
  ) {
    this.#tracer = tracer;
    this.#provider = run.provider;
    this.#model = run.model;
    this.#run = startSpan(tracer, "junction.agent.send", {
      operation: { kind: "run", provider: run.provider, model: run.model },
      attributes: { "junction.model": run.model, "junction.provider": run.provider },
      ...(run.resumedFrom ? { links: [run.resumedFrom] } : {}),
    });
  }

  /** The W3C context of the run's span: where a stopped run's trace lives. */
  carrier(): TraceCarrier | undefined {
    return carrierOf(this.#run);
  }

  /** Runs `fn` with the scope's span current (when the tracer can make it so). */
  within<T>(scope: SpanScope, fn: () => T): T {
    if (!this.#tracer) return fn();
    const span =
      scope.kind === "run"
        ? this.#run
        : scope.kind === "model-call"
          ? this.#modelCall?.span
          : this.#tools.get(scope.id);
    return span ? inSpan(this.#tracer, span, fn) : fn();
  }

  /** A public event of the run: the tracer sees it with the run's span; `finish` and `error` then end the run's span. */
  event(event: AgentEvent): void {
    if (!this.#tracer) return;
    traceEvent(this.#tracer, event, this.#run);
    switch (event.type) {
      case "step-end":
        this.#steps++;
        return;
      case "tool-progress":
        recordProgress(this.#tools.get(event.id), event);
        return;
      case "finish":
        this.#end(this.#run, {
          outcome: { kind: "run", steps: this.#steps, finishReason: event.reason, usage: event.usage },
        });
        return;
      case "error":
        this.#end(this.#run, { error: event.error });
        return;
      default:
        return;
    }
  }

  /** An event of the loop's own work. */
  note(event: RunTraceEvent): void {
    if (!this.#tracer) return;
    switch (event.type) {
      case "model-call-start": {
        const { request } = event;
        const span = startSpan(this.#tracer, "junction.model.call", {
          operation: {
            kind: "model-call",
            provider: this.#provider,
            model: this.#model,
            step: event.step,
            request,
          },
          attributes: {
            "junction.model": this.#model,
            "junction.provider": this.#provider,
            "junction.step": event.step,
            // The request's size by Junction's estimator, as step-end reports it.
            "junction.request.tool_tokens": request.tools,
            "junction.request.history_tokens": request.history,
            "junction.request.tool_result_tokens": request.toolResults,
            "junction.request.context_window": request.contextWindow,
          },
          parent: this.#run,
          input: event.input,
        });
        this.#modelCall = { span };
        return;
      }
      case "model-call-end":
      case "model-call-error": {
        const call = this.#modelCall;
        this.#modelCall = undefined;
        if (!call) return;
        if (event.type === "model-call-error") this.#end(call.span, { error: event.error });
        else {
          const { type: _type, ...ended } = event;
          this.#end(call.span, { outcome: { kind: "model-call", ...ended } });
        }
        return;
      }
      case "tool-execute-start": {
        const { program } = event;
        this.#tools.set(
          event.id,
          startSpan(this.#tracer, "junction.tool.call", {
            operation: {
              kind: "tool-call",
              id: event.id,
              name: event.name,
              step: event.step,
              ...(program ? { program } : {}),
            },
            attributes: {
              "junction.tool.name": event.name,
              "junction.tool.call_id": event.id,
              "junction.step": event.step,
              ...(program ? programAttributes(program) : {}),
            },
            parent: (program?.runtime === "sandbox" ? this.#tools.get(program.id) : undefined) ?? this.#run,
          }),
        );
        return;
      }
      case "tool-execute-end":
      case "tool-execute-abort": {
        const span = this.#tools.get(event.id);
        this.#tools.delete(event.id);
        if (!span) return;
        if (event.type === "tool-execute-abort") {
          this.#end(span, { error: event.error, outcome: { kind: "tool-call", outcome: "aborted" } });
        } else {
          this.#end(span, {
            outcome: {
              kind: "tool-call",
              outcome: event.outcome,
              ...(event.server !== undefined ? { server: event.server } : {}),
              durationMs: event.durationMs,
            },
            ...(event.statusMessage !== undefined ? { statusMessage: event.statusMessage } : {}),
          });
        }
        return;
      }
      default:
        event satisfies never;
    }
  }

  #end(span: Span, ended: { error?: Error; outcome?: SpanOutcome; statusMessage?: string }): void {
    endSpan(span, { ...ended, ...(ended.outcome ? { attributes: outcomeAttributes(ended.outcome) } : {}) });
  }
}

/** The program that made a call, as the attributes of the call's span (the same in `@junction/otel`). */
export function programAttributes(program: ToolCallProgramOf): SpanAttributes {
  return {
    "junction.tool.parent_call_id": program.id,
    "junction.tool.parent_sequence": program.sequence,
    "junction.tool.parent_name": program.name,
    "junction.tool.parent_runtime": program.runtime,
  };
}

/** An outcome as the `junction.*` attributes a tracer without `setOutcome` gets. */
export function outcomeAttributes(outcome: SpanOutcome): SpanAttributes {
  switch (outcome.kind) {
    case "run":
      return {
        "junction.steps": outcome.steps,
        "junction.finish_reason": outcome.finishReason,
        ...usageAttributes(outcome.usage),
      };
    case "model-call":
      return {
        "junction.duration_ms": Math.round(outcome.durationMs),
        "junction.finish_reason": outcome.finishReason,
        "junction.response_id": outcome.responseId,
        ...usageAttributes(outcome.usage),
      };
    case "tool-call":
      return {
        "junction.tool.server": outcome.server,
        "junction.tool.outcome": outcome.outcome,
        "junction.duration_ms": outcome.durationMs === undefined ? undefined : Math.round(outcome.durationMs),
      };
    default:
      return outcome satisfies never;
  }
}

function usageAttributes(usage: Usage): SpanAttributes {
  return {
    "junction.usage.input_tokens": usage.inputTokens,
    "junction.usage.output_tokens": usage.outputTokens,
    "junction.usage.cached_input_tokens": usage.cachedInputTokens,
    "junction.usage.cache_write_input_tokens": usage.cacheWriteInputTokens,
  };
}

/** A `tool-progress` event (checked already: finite numbers, a bounded message) on its execution's span. */
function recordProgress(span: Span | undefined, progress: ToolProgress): void {
  try {
    span?.addEvent?.("junction.tool.progress", {
      "junction.progress": progress.progress,
      "junction.progress.total": progress.total,
      "junction.progress.message": progress.message,
    });
  } catch {
    // A broken tracer must not break the tool.
  }
}
