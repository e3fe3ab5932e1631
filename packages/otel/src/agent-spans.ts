import type {
  AgentEvent,
  ModelCallInput,
  Span,
  SpanAttributes,
  SpanAttributeValue,
  SpanOperation,
  SpanOutcome,
  ToolCallProgramOf,
  TraceCarrier,
  Tracer,
} from "@junction/core";
import {
  type Attributes,
  type Context,
  context,
  type Link,
  type Span as OtelSpan,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import type { ContentCapture } from "./content.js";
import { conversationIdOf } from "./conversation.js";
import { toInputMessages, toSystemInstructions } from "./messages.js";
import { ATTR, providerName } from "./semconv.js";
import { errorTypeOf, type MCPFoldTarget, nowMs, type Shared } from "./shared.js";
import { formatTraceContext, parseTraceparent } from "./trace-context.js";

/**
 * Junction's `Tracer` on OpenTelemetry: the run, model-call and tool-call spans core opens (told
 * apart by their typed `operation`, ended with their typed `SpanOutcome`) become `invoke_agent`,
 * `chat` and `execute_tool` spans with the GenAI conventions' names, kinds and attributes; the
 * run's events add the approvals, how refused calls ended, and (opt-in) content.
 */
export function createAgentTracer(shared: Shared): Tracer {
  return {
    startSpan(name, options) {
      const parent = options.parent instanceof BridgeSpan ? options.parent : undefined;
      const run = parent instanceof RunSpan ? parent : undefined;
      const operation: SpanOperation | undefined = options.operation;
      switch (operation?.kind) {
        case "run":
          return new RunSpan(shared, { operation, links: options.links ?? [] });
        case "model-call":
          return new ChatSpan(shared, { operation, run, ...(options.input ? { input: options.input } : {}) });
        case "tool-call":
          // A sandbox's call (code mode) nests under its program's span, as core says, in its run.
          return parent instanceof ToolSpan
            ? new ToolSpan(shared, { operation, run: parent.run, parent: parent.otel })
            : new ToolSpan(shared, { operation, run, ...(run ? { parent: run.otel } : {}) });
        case undefined:
          // A span core may add later: kept under its own name, nested where core says.
          return new PlainSpan(shared, {
            name,
            attributes: options.attributes,
            parent: parent ? trace.setSpan(context.active(), parent.otel) : context.active(),
          });
        default:
          return operation satisfies never;
      }
    },
    withSpan(span, fn) {
      if (!(span instanceof BridgeSpan)) return fn();
      return context.with(trace.setSpan(context.active(), span.otel), fn);
    },
    onEvent(event: AgentEvent, run: Span) {
      if (run instanceof RunSpan) run.onEvent(event);
    },
  };
}

/** What every span of the bridge does with core's calls: the outcome translated, status and exceptions kept. */
abstract class BridgeSpan implements Span {
  readonly otel: OtelSpan;
  protected errorType: string | undefined;
  protected errorMessage: string | undefined;
  protected readonly startedAt = nowMs();
  private closed = false;

  constructor(
    protected readonly shared: Shared,
    otel: OtelSpan,
  ) {
    this.otel = otel;
  }

  /** An attribute set by key goes on as given: core ends its own spans with `setOutcome`. */
  setAttribute(key: string, value: SpanAttributeValue): this {
    this.otel.setAttribute(key, value);
    return this;
  }

  setAttributes(attributes: SpanAttributes): this {
    this.otel.setAttributes(withoutUndefined(attributes));
    return this;
  }

  addEvent(name: string, attributes?: SpanAttributes): this {
    this.otel.addEvent(name, eventAttributes(attributes ?? {}, this.shared.capture));
    return this;
  }

  setStatus(status: { code: 0 | 1 | 2; message?: string }): this {
    // Success leaves the status unset, as instrumentations do; an error is completed at end().
    if (status.code === 2) this.errorMessage = status.message ?? this.errorMessage ?? "";
    return this;
  }

  recordException(exception: Error): this {
    this.errorType = errorTypeOf(exception);
    this.otel.recordException(exception);
    return this;
  }

  end(): void {
    if (this.closed) return;
    this.closed = true;
    this.close(nowMs());
  }

  traceCarrier(): TraceCarrier | undefined {
    return formatTraceContext(this.otel.spanContext());
  }

  /** Sets `error.type` and the ERROR status when the span failed, then ends it at `endTime`. */
  protected finish(endTime: number, description?: string): void {
    if (this.errorType !== undefined || this.errorMessage !== undefined) {
      const errorType = this.errorType ?? "_OTHER";
      this.otel.setAttribute(ATTR.errorType, errorType);
      this.otel.setStatus({
        code: SpanStatusCode.ERROR,
        message: description ?? this.errorMessage ?? errorType,
      });
    }
    this.otel.end(endTime);
  }

  protected close(endTime: number): void {
    this.finish(endTime);
  }

  /** Core's typed outcome, in the conventions' names (what each kind of span takes from it). */
  setOutcome(_outcome: SpanOutcome): this {
    return this;
  }
}

/** A span of a name the bridge does not know: attributes as given. */
class PlainSpan extends BridgeSpan {
  constructor(shared: Shared, parts: { name: string; attributes: SpanAttributes; parent: Context }) {
    super(
      shared,
      shared.tracer.startSpan(parts.name, { attributes: withoutUndefined(parts.attributes) }, parts.parent),
    );
  }
}

/** `invoke_agent {agent}` (INTERNAL: the agent runs in this process), with what the run's events tell. */
export class RunSpan extends BridgeSpan {
  readonly provider: string;
  readonly model: string;
  readonly resumed: boolean;
  /** `gen_ai.conversation.id`: what `withConversation` set where the run started. */
  readonly conversationId: string | undefined;
  /** The chat span streaming now (model turns of a run are sequential). */
  currentChat: ChatSpan | undefined;
  /** Calls whose `tool-call` event this run emitted, with their arguments. */
  readonly liveCalls = new Map<string, unknown>();
  readonly toolSpans = new Map<string, ToolSpan>();
  /** Calls whose execution started in this run. */
  private readonly executed = new Set<string>();
  private readonly approvals = new Map<string, OtelSpan>();

  constructor(
    shared: Shared,
    parts: { operation: Extract<SpanOperation, { kind: "run" }>; links: TraceCarrier[] },
  ) {
    const { provider, model } = parts.operation;
    const links: Link[] = parts.links.flatMap((carrier) => {
      const linked = parseTraceparent(carrier.traceparent);
      return linked ? [{ context: linked, attributes: { "junction.link.type": "resumed-from" } }] : [];
    });
    const conversationId = conversationIdOf(context.active());
    super(
      shared,
      shared.tracer.startSpan(
        `invoke_agent ${shared.agentName}`,
        {
          kind: SpanKind.INTERNAL,
          attributes: {
            [ATTR.operationName]: "invoke_agent",
            [ATTR.providerName]: providerName(provider),
            ...(shared.legacySystem ? { [ATTR.system]: providerName(provider) } : {}),
            [ATTR.agentName]: shared.agentName,
            ...(conversationId ? { [ATTR.conversationId]: conversationId } : {}),
            [ATTR.requestModel]: model,
          },
          links,
        },
        context.active(),
      ),
    );
    this.provider = provider;
    this.model = model;
    this.resumed = links.length > 0;
    this.conversationId = conversationId;
  }

  override setOutcome(outcome: SpanOutcome): this {
    if (outcome.kind !== "run") return this;
    this.otel.setAttributes({
      [ATTR.finishReasons]: [finishReasonOf(outcome.finishReason)],
      "junction.steps": outcome.steps,
      ...usageAttributes(outcome.usage),
    });
    return this;
  }

  onEvent(event: AgentEvent): void {
    switch (event.type) {
      case "text-delta":
        this.currentChat?.outputText(event.text);
        return;
      case "tool-call":
        this.liveCalls.set(event.id, event.input);
        this.currentChat?.outputToolCall(event);
        return;
      case "tool-approval-request":
        this.askApproval(event);
        return;
      case "tool-result":
        this.toolResult(event);
        return;
      case "tool-search":
        this.toolSpans.get(event.id)?.toolSearch(event);
        return;
      case "finish":
        if (event.reason === "approval-required") this.closeApprovals("pending", "none");
        return;
      case "reasoning-delta":
      case "tool-input-delta":
      case "output-delta":
      case "output":
      case "tool-progress":
      case "step-end":
      case "warning":
      case "error":
        return;
      default:
        event satisfies never;
        return;
    }
  }

  /** Core started the call's execution: an approval asked for it was given. */
  toolStarted(id: string, name: string): void {
    this.executed.add(id);
    const approval = this.approvals.get(id);
    if (approval) {
      this.approvals.delete(id);
      endApproval(approval, { decision: "approved", decidedBy: "user" });
    } else if (this.resumed && !this.liveCalls.has(id)) {
      this.decidedOnResume(id, name, "approved");
    }
  }

  protected override close(endTime: number): void {
    this.closeApprovals("cancelled", "none");
    for (const tool of this.toolSpans.values()) tool.flush();
    this.finish(endTime);
  }

  private askApproval(event: Extract<AgentEvent, { type: "tool-approval-request" }>): void {
    const span = this.shared.tracer.startSpan(
      `await_approval ${event.name}`,
      {
        kind: SpanKind.INTERNAL,
        attributes: {
          [ATTR.toolName]: event.name,
          [ATTR.toolCallId]: event.id,
          ...(event.reason ? { "junction.approval.reason": event.reason } : {}),
        },
      },
      trace.setSpan(context.active(), this.otel),
    );
    this.approvals.get(event.id)?.end(nowMs());
    this.approvals.set(event.id, span);
  }

  private toolResult(event: Extract<AgentEvent, { type: "tool-result" }>): void {
    if (this.executed.has(event.id)) {
      this.toolSpans.get(event.id)?.result(event.result);
      return;
    }
    // The call never ran: refused by the policy or by a person, or its input or tool was wrong.
    const approval = this.approvals.get(event.id);
    const reason = this.shared.capture ? firstText(event.result) : undefined;
    if (approval) {
      this.approvals.delete(event.id);
      endApproval(approval, { decision: "denied", decidedBy: "user", reason });
      return;
    }
    if (this.resumed && !this.liveCalls.has(event.id)) {
      this.decidedOnResume(event.id, event.name, "denied");
      return;
    }
    this.otel.addEvent("junction.tool_call.refused", {
      [ATTR.toolName]: event.name,
      [ATTR.toolCallId]: event.id,
      "junction.tool.outcome": event.outcome ?? "error",
      ...(event.outcome === "denied" ? { "junction.approval.decided_by": "policy" } : {}),
      ...(reason ? { "junction.approval.reason": reason } : {}),
    });
  }

  private decidedOnResume(id: string, name: string, decision: "approved" | "denied"): void {
    this.otel.addEvent("junction.approval", {
      [ATTR.toolName]: name,
      [ATTR.toolCallId]: id,
      "junction.approval.decision": decision,
      "junction.approval.decided_by": "resume",
    });
  }

  private closeApprovals(decision: "pending" | "cancelled", decidedBy: string): void {
    for (const span of this.approvals.values()) endApproval(span, { decision, decidedBy });
    this.approvals.clear();
  }
}

/** `chat {model}` (CLIENT): one model turn, with usage, finish reason and the client metrics. */
class ChatSpan extends BridgeSpan {
  private readonly run: RunSpan | undefined;
  private readonly provider: string;
  private readonly model: string;
  private inputTokens: number | undefined;
  private outputTokens: number | undefined;
  private finishReason: string | undefined;
  private readonly text: string[] = [];
  private readonly toolCalls: { id: string; name: string; arguments: unknown }[] = [];

  constructor(
    shared: Shared,
    parts: {
      operation: Extract<SpanOperation, { kind: "model-call" }>;
      run: RunSpan | undefined;
      input?: () => ModelCallInput;
    },
  ) {
    const { provider, model, step } = parts.operation;
    const conversationId = parts.run ? parts.run.conversationId : conversationIdOf(context.active());
    super(
      shared,
      shared.tracer.startSpan(
        `chat ${model}`,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            [ATTR.operationName]: "chat",
            [ATTR.providerName]: providerName(provider),
            ...(shared.legacySystem ? { [ATTR.system]: providerName(provider) } : {}),
            ...(conversationId ? { [ATTR.conversationId]: conversationId } : {}),
            [ATTR.requestModel]: model,
            "junction.step": step,
          },
        },
        parts.run ? trace.setSpan(context.active(), parts.run.otel) : context.active(),
      ),
    );
    this.run = parts.run;
    this.provider = provider;
    this.model = model;
    if (parts.run) parts.run.currentChat = this;
    if (shared.capture && parts.input) {
      const input = parts.input();
      this.otel.setAttribute(ATTR.inputMessages, shared.capture.text(toInputMessages(input)));
      if (input.system !== undefined) {
        this.otel.setAttribute(
          ATTR.systemInstructions,
          shared.capture.text(toSystemInstructions(input.system)),
        );
      }
    }
  }

  outputText(text: string): void {
    if (this.shared.capture) this.text.push(text);
  }

  outputToolCall(call: { id: string; name: string; input: unknown }): void {
    if (this.shared.capture) this.toolCalls.push({ id: call.id, name: call.name, arguments: call.input });
  }

  override setOutcome(outcome: SpanOutcome): this {
    if (outcome.kind !== "model-call") return this;
    this.finishReason = finishReasonOf(outcome.finishReason);
    this.inputTokens = outcome.usage.inputTokens;
    this.outputTokens = outcome.usage.outputTokens;
    this.otel.setAttributes({
      [ATTR.finishReasons]: [this.finishReason],
      ...(outcome.responseId !== undefined ? { [ATTR.responseId]: outcome.responseId } : {}),
      ...usageAttributes(outcome.usage),
    });
    return this;
  }

  protected override close(endTime: number): void {
    if (this.run?.currentChat === this) this.run.currentChat = undefined;
    const capture = this.shared.capture;
    if (capture && (this.text.length > 0 || this.toolCalls.length > 0)) {
      const parts = [
        ...(this.text.length > 0 ? [{ type: "text", content: this.text.join("") }] : []),
        ...this.toolCalls.map((call) => ({ type: "tool_call", ...call })),
      ];
      this.otel.setAttribute(
        ATTR.outputMessages,
        capture.text([{ role: "assistant", parts, finish_reason: this.finishReason ?? "stop" }]),
      );
    }
    const failed = this.errorType !== undefined || this.errorMessage !== undefined;
    const attributes: Attributes = {
      [ATTR.operationName]: "chat",
      [ATTR.providerName]: providerName(this.provider),
      [ATTR.requestModel]: this.model,
    };
    this.shared.operationDuration.record((endTime - this.startedAt) / 1000, {
      ...attributes,
      ...(failed ? { [ATTR.errorType]: this.errorType ?? "_OTHER" } : {}),
    });
    if (this.inputTokens !== undefined)
      this.shared.tokenUsage.record(this.inputTokens, { ...attributes, [ATTR.tokenType]: "input" });
    if (this.outputTokens !== undefined)
      this.shared.tokenUsage.record(this.outputTokens, { ...attributes, [ATTR.tokenType]: "output" });
    this.finish(endTime);
  }
}

/**
 * `execute_tool {tool}` (INTERNAL): one tool's execution. An MCP `tools/call` made inside it folds
 * its MCP attributes in instead of opening a span of its own. With content capture, the span
 * ends once the run reports the result (at the time core ended it), so the result is on it.
 */
class ToolSpan extends BridgeSpan implements MCPFoldTarget {
  readonly run: RunSpan | undefined;
  private readonly id: string;
  private endedAt: number | undefined;
  private done = false;

  constructor(
    shared: Shared,
    parts: {
      operation: Extract<SpanOperation, { kind: "tool-call" }>;
      run: RunSpan | undefined;
      /** The span it nests under: the run's, or a sandbox's program's; absent, the active one. */
      parent?: OtelSpan;
    },
  ) {
    const { name, id, program } = parts.operation;
    const input = parts.run?.liveCalls.get(id);
    super(
      shared,
      shared.tracer.startSpan(
        `execute_tool ${name}`,
        {
          kind: SpanKind.INTERNAL,
          attributes: {
            [ATTR.operationName]: "execute_tool",
            [ATTR.toolName]: name,
            [ATTR.toolCallId]: id,
            [ATTR.toolType]: "function",
            ...(program ? programAttributes(program) : {}),
            ...(shared.capture && input !== undefined
              ? { [ATTR.toolCallArguments]: shared.capture.text(input) }
              : {}),
          },
        },
        parts.parent ? trace.setSpan(context.active(), parts.parent) : context.active(),
      ),
    );
    this.run = parts.run;
    this.id = id;
    shared.toolSpans.set(this.otel, this);
    parts.run?.toolSpans.set(id, this);
    parts.run?.toolStarted(id, name);
  }

  foldMCP(attributes: Attributes): void {
    this.otel.setAttributes(attributes);
    // A tool reached through MCP runs on the agent's side against an external server.
    this.otel.setAttribute(ATTR.toolType, "extension");
  }

  /**
   * A `search_tools` call's outcome on its span: the tools found with their scores, those loaded
   * and whether nothing fitted; the query (the model's words) only with content capture.
   */
  toolSearch(event: Extract<AgentEvent, { type: "tool-search" }>): void {
    this.otel.setAttributes({
      "junction.tool_search.results": event.results.map((result) => result.name),
      "junction.tool_search.scores": event.results.map((result) => result.score),
      "junction.tool_search.loaded": event.loaded,
      "junction.tool_search.nothing_fits": event.nothingFits,
      ...(this.shared.capture ? { "junction.tool_search.query": event.query } : {}),
    });
  }

  mcpFailed(errorType: string): void {
    this.errorType ??= errorType;
  }

  /** The run reported the call's result: captured when capture is on, and the span ends. */
  result(result: unknown): void {
    if (this.shared.capture && this.errorType === undefined && this.errorMessage === undefined) {
      this.otel.setAttribute(ATTR.toolCallResult, this.shared.capture.text(result));
    }
    if (this.endedAt !== undefined) this.complete(this.endedAt);
  }

  /** Ends the span if core ended it and the result never came (an abort, the run's end). */
  flush(): void {
    if (this.endedAt !== undefined) this.complete(this.endedAt);
  }

  override setOutcome(outcome: SpanOutcome): this {
    if (outcome.kind !== "tool-call") return this;
    this.otel.setAttribute("junction.tool.outcome", outcome.outcome);
    if (outcome.outcome === "error") this.errorType ??= "tool_error";
    return this;
  }

  protected override close(endTime: number): void {
    this.endedAt = endTime;
    // Without capture nothing is waited for; with it, the result event comes right after.
    if (!this.shared.capture || !this.run) this.complete(endTime);
  }

  private complete(endTime: number): void {
    if (this.done) return;
    this.done = true;
    this.shared.toolSpans.delete(this.otel);
    this.run?.toolSpans.delete(this.id);
    // A failed result's text is the tool's output: it is content, and stays off the status.
    this.finish(endTime, this.shared.capture ? undefined : this.errorType);
  }
}

/**
 * The program that made a call (code mode), as core's `junction.tool.call` span has it: a
 * sandbox's call is also the program span's child; a vendor's program ran at the vendor, so its
 * calls are found by `parent_call_id` (the vendor's id of the program) in `parent_sequence` order.
 */
function programAttributes(program: ToolCallProgramOf): Attributes {
  return {
    "junction.tool.parent_call_id": program.id,
    "junction.tool.parent_sequence": program.sequence,
    "junction.tool.parent_name": program.name,
    "junction.tool.parent_runtime": program.runtime,
  };
}

/** A run's or a model call's token counts, as core's outcome has them. */
type Usage = Extract<SpanOutcome, { kind: "run" }>["usage"];

/** Token usage under the conventions' names; counts the vendor did not report are left out. */
function usageAttributes(usage: Usage): Attributes {
  const attributes: Attributes = {};
  if (usage.inputTokens !== undefined) attributes[ATTR.inputTokens] = usage.inputTokens;
  if (usage.outputTokens !== undefined) attributes[ATTR.outputTokens] = usage.outputTokens;
  if (usage.cachedInputTokens !== undefined) attributes[ATTR.cacheReadInputTokens] = usage.cachedInputTokens;
  if (usage.cacheWriteInputTokens !== undefined)
    attributes[ATTR.cacheCreationInputTokens] = usage.cacheWriteInputTokens;
  return attributes;
}

/** Junction's finish reason in the conventions' words (`tool-calls` is `tool_call`); others as they are. */
function finishReasonOf(reason: string): string {
  switch (reason) {
    case "tool-calls":
      return "tool_call";
    case "content-filter":
      return "content_filter";
    default:
      return reason;
  }
}

function endApproval(
  span: OtelSpan,
  { decision, decidedBy, reason }: { decision: string; decidedBy: string; reason?: string },
): void {
  span.setAttributes({
    "junction.approval.decision": decision,
    "junction.approval.decided_by": decidedBy,
    ...(reason ? { "junction.approval.reason": reason } : {}),
  });
  span.end(nowMs());
}

function firstText(result: { content?: { type: string; text?: string }[] } | undefined): string | undefined {
  const part = result?.content?.find((item) => item.type === "text");
  return part?.text;
}

/**
 * Attributes of core's span events that carry free text from a tool or an MCP server (a progress
 * report's message): content, so recorded only with content capture, bounded and redacted.
 */
const CONTENT_EVENT_ATTRIBUTES = new Set(["junction.progress.message"]);

/** An event's attributes as they go on the span: content ones only with capture; undefined ones left out. */
function eventAttributes(attributes: SpanAttributes, capture: ContentCapture | undefined): Attributes {
  const result: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined) continue;
    if (!CONTENT_EVENT_ATTRIBUTES.has(key)) result[key] = value;
    else if (capture) result[key] = capture.text(value);
  }
  return result;
}

function withoutUndefined(attributes: SpanAttributes): Attributes {
  const result: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined) result[key] = value;
  return result;
}
