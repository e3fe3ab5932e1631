import {
  type Attributes,
  context,
  type Span as OtelSpan,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import { ATTR } from "./semconv.js";
import { type MCPFoldTarget, nowMs, type Shared } from "./shared.js";
import { extractTraceContext, injectTraceContext } from "./trace-context.js";

/** One JSON-RPC message as the MCP client's tap reports it (`@junction/mcp-client`'s `MCPWireMessage`). */
export interface MCPTapMessage {
  direction: "in" | "out";
  message: Record<string, unknown>;
  at: number;
  /** The Streamable HTTP session (`Mcp-Session-Id`) it belongs to, when there is one. */
  sessionId?: string;
}

/** A request about to be sent, as the client's `requestMeta` hook gets it. */
export interface MCPOutgoingRequest {
  method: string;
  id?: string | number;
  params?: Record<string, unknown>;
  /** The Streamable HTTP session it is sent in, when there is one. */
  sessionId?: string;
}

/**
 * The part of an MCP connection's config (`@junction/mcp-client`'s `MCPConfig`) that telemetry
 * reads and extends: the transport and URL for the server attributes, and the two hooks.
 */
export interface InstrumentableMCPConfig {
  transport: string;
  url?: string;
  /** Typed loosely: the client's own message type is narrower, and any of it is accepted. */
  onMessage?: (message: any) => void;
  requestMeta?: (request: MCPOutgoingRequest) => Record<string, string> | undefined;
}

/** A request sent and not yet answered. */
interface PendingRequest {
  method: string;
  startedAt: number;
  metricAttributes: Attributes;
  /** Its own client span, or the `execute_tool` span it folded into. */
  span?: OtelSpan;
  fold?: MCPFoldTarget;
}

const MAX_STATUS_CHARS = 256;

/**
 * `config` with the hooks that trace its connection: a client span `{mcp.method.name} {target}`
 * (CLIENT) per request (a `tools/call` inside an `execute_tool` span folds into it instead),
 * trace context in every request's `params._meta`, a SERVER span for each request the server
 * sends (sampling, elicitation) under the context it carries, and `mcp.client.operation.duration`.
 * The config's own `onMessage` and `requestMeta` still run.
 */
export function instrumentMCPConfig<T extends InstrumentableMCPConfig>(shared: Shared, config: T): T {
  const connection = new MCPConnectionTelemetry(shared, connectionAttributes(config));
  const userOnMessage = config.onMessage;
  const userRequestMeta = config.requestMeta;
  return {
    ...config,
    onMessage: (message: MCPTapMessage) => {
      connection.onMessage(message);
      userOnMessage?.(message);
    },
    requestMeta: (request: MCPOutgoingRequest) => {
      const ours = connection.requestMeta(request);
      const theirs = userRequestMeta?.(request);
      return ours || theirs ? { ...ours, ...theirs } : undefined;
    },
  };
}

class MCPConnectionTelemetry {
  private protocolVersion: string | undefined;
  private readonly pending = new Map<string, PendingRequest>();
  private readonly incoming = new Map<string, OtelSpan>();

  constructor(
    private readonly shared: Shared,
    private readonly base: Attributes,
  ) {}

  requestMeta(request: MCPOutgoingRequest): Record<string, string> | undefined {
    const active = context.active();
    if (request.id === undefined) {
      if (request.method === "notifications/cancelled") this.cancelled(request.params?.requestId);
      return injectTraceContext(active);
    }
    // A new handshake is a new session (a reconnect): what the old one left unanswered never will be.
    if (request.method === "initialize" || request.method === "server/discover") this.abandonPending();
    const attributes = this.requestAttributes(request);
    const activeSpan = trace.getSpan(active);
    const fold =
      request.method === "tools/call" && activeSpan ? this.shared.toolSpans.get(activeSpan) : undefined;
    const metricAttributes = metricAttributesOf(attributes);
    if (fold) {
      // The execute_tool span keeps the tool's name as the model knows it (with any prefix).
      const { [ATTR.toolName]: _name, [ATTR.operationName]: _operation, ...mcpAttributes } = attributes;
      fold.foldMCP(mcpAttributes);
      this.pending.set(String(request.id), {
        method: request.method,
        startedAt: nowMs(),
        metricAttributes,
        fold,
      });
      return injectTraceContext(active);
    }
    const target = targetOf(request);
    const span = this.shared.tracer.startSpan(
      target ? `${request.method} ${target}` : request.method,
      { kind: SpanKind.CLIENT, attributes },
      active,
    );
    this.pending.set(String(request.id), {
      method: request.method,
      startedAt: nowMs(),
      metricAttributes,
      span,
    });
    return injectTraceContext(trace.setSpan(active, span));
  }

  onMessage(wire: MCPTapMessage): void {
    const message = wire.message;
    const id = message.id;
    if (id === undefined || id === null) return;
    const isResponse = "result" in message || "error" in message;
    if (wire.direction === "in" && isResponse) this.answered(String(id), message, wire.sessionId);
    else if (wire.direction === "in" && typeof message.method === "string")
      this.serverRequest(message, wire.sessionId);
    else if (wire.direction === "out" && isResponse) this.serverRequestAnswered(String(id), message);
  }

  private requestAttributes(request: MCPOutgoingRequest): Attributes {
    const params = request.params ?? {};
    const attributes: Attributes = {
      ...this.base,
      [ATTR.mcpMethodName]: request.method,
      ...(request.id !== undefined ? { [ATTR.jsonrpcRequestId]: String(request.id) } : {}),
      ...(this.protocolVersion ? { [ATTR.mcpProtocolVersion]: this.protocolVersion } : {}),
      ...(request.sessionId ? { [ATTR.mcpSessionId]: request.sessionId } : {}),
    };
    if (request.method === "tools/call" && typeof params.name === "string") {
      attributes[ATTR.toolName] = params.name;
      attributes[ATTR.operationName] = "execute_tool";
    }
    if (request.method === "prompts/get" && typeof params.name === "string")
      attributes[ATTR.promptName] = params.name;
    if (request.method.startsWith("resources/") && typeof params.uri === "string")
      attributes[ATTR.mcpResourceUri] = params.uri;
    return attributes;
  }

  private answered(id: string, message: Record<string, unknown>, sessionId: string | undefined): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    // The handshake's answer opens the session: its span gets the id the answer brought.
    if (sessionId && pending.span) pending.span.setAttribute(ATTR.mcpSessionId, sessionId);
    const result = message.result as Record<string, unknown> | undefined;
    if ((pending.method === "initialize" || pending.method === "server/discover") && result) {
      if (typeof result.protocolVersion === "string") this.protocolVersion = result.protocolVersion;
    }
    const error = message.error as { code?: unknown; message?: unknown } | undefined;
    let failure: { errorType: string; statusCode?: string; description?: string } | undefined;
    if (error) {
      const code =
        typeof error.code === "number" || typeof error.code === "string" ? String(error.code) : "_OTHER";
      failure = {
        errorType: code,
        statusCode: code,
        description: typeof error.message === "string" ? error.message.slice(0, MAX_STATUS_CHARS) : code,
      };
    } else if (pending.method === "tools/call" && result?.isError === true) {
      failure = { errorType: "tool_error" };
    }
    this.finish(pending, failure);
  }

  private abandonPending(): void {
    for (const pending of this.pending.values()) this.finish(pending, { errorType: "connection_closed" });
    this.pending.clear();
    for (const span of this.incoming.values()) {
      span.setAttribute(ATTR.errorType, "connection_closed");
      span.setStatus({ code: SpanStatusCode.ERROR, message: "connection_closed" });
      span.end(nowMs());
    }
    this.incoming.clear();
  }

  private cancelled(requestId: unknown): void {
    if (typeof requestId !== "string" && typeof requestId !== "number") return;
    const pending = this.pending.get(String(requestId));
    if (!pending) return;
    this.pending.delete(String(requestId));
    this.finish(pending, { errorType: "cancelled" });
  }

  private finish(
    pending: PendingRequest,
    failure: { errorType: string; statusCode?: string; description?: string } | undefined,
  ): void {
    const outcome: Attributes = failure
      ? {
          [ATTR.errorType]: failure.errorType,
          ...(failure.statusCode ? { [ATTR.rpcResponseStatusCode]: failure.statusCode } : {}),
        }
      : {};
    this.shared.mcpDuration.record((nowMs() - pending.startedAt) / 1000, {
      ...pending.metricAttributes,
      ...(this.protocolVersion ? { [ATTR.mcpProtocolVersion]: this.protocolVersion } : {}),
      ...outcome,
    });
    if (pending.fold) {
      if (failure) {
        if (failure.statusCode)
          pending.fold.otel.setAttribute(ATTR.rpcResponseStatusCode, failure.statusCode);
        pending.fold.mcpFailed(failure.errorType, failure.description);
      }
      return;
    }
    const span = pending.span!;
    if (failure) {
      span.setAttributes(outcome);
      span.setStatus({ code: SpanStatusCode.ERROR, message: failure.description ?? failure.errorType });
    }
    span.end(nowMs());
  }

  /** A request from the server (sampling, elicitation, roots): a SERVER span under the context it carries. */
  private serverRequest(message: Record<string, unknown>, sessionId: string | undefined): void {
    const method = String(message.method);
    const params = (message.params ?? {}) as Record<string, unknown>;
    const meta = params._meta;
    const parent =
      meta !== null && typeof meta === "object"
        ? extractTraceContext(meta as Record<string, unknown>)
        : undefined;
    const span = this.shared.tracer.startSpan(
      method,
      {
        kind: SpanKind.SERVER,
        attributes: {
          ...this.base,
          [ATTR.mcpMethodName]: method,
          [ATTR.jsonrpcRequestId]: String(message.id),
          ...(this.protocolVersion ? { [ATTR.mcpProtocolVersion]: this.protocolVersion } : {}),
          ...(sessionId ? { [ATTR.mcpSessionId]: sessionId } : {}),
        },
      },
      parent ?? context.active(),
    );
    this.incoming.set(String(message.id), span);
  }

  private serverRequestAnswered(id: string, message: Record<string, unknown>): void {
    const span = this.incoming.get(id);
    if (!span) return;
    this.incoming.delete(id);
    const error = message.error as { code?: unknown; message?: unknown } | undefined;
    if (error) {
      const code = String(error.code ?? "_OTHER");
      span.setAttributes({ [ATTR.errorType]: code, [ATTR.rpcResponseStatusCode]: code });
      span.setStatus({
        code: SpanStatusCode.ERROR,
        message: typeof error.message === "string" ? error.message.slice(0, MAX_STATUS_CHARS) : code,
      });
    }
    span.end(nowMs());
  }
}

/** `network.transport` and, over HTTP, the server's host and port: never its path, query or credentials. */
function connectionAttributes(config: InstrumentableMCPConfig): Attributes {
  if (config.transport === "stdio") return { [ATTR.networkTransport]: "pipe" };
  if ((config.transport === "http" || config.transport === "sse") && typeof config.url === "string") {
    try {
      const url = new URL(config.url);
      const port = url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
      return {
        [ATTR.networkTransport]: "tcp",
        [ATTR.networkProtocolName]: "http",
        [ATTR.serverAddress]: url.hostname,
        [ATTR.serverPort]: port,
      };
    } catch {
      return { [ATTR.networkTransport]: "tcp" };
    }
  }
  return {};
}

/** The low-cardinality target of a span name: the tool's or the prompt's name. */
function targetOf(request: MCPOutgoingRequest): string | undefined {
  const name = request.params?.name;
  return (request.method === "tools/call" || request.method === "prompts/get") && typeof name === "string"
    ? name
    : undefined;
}

/** The metric's attributes: the span's, less the per-request id, the session id and the (opt-in) resource URI. */
function metricAttributesOf(attributes: Attributes): Attributes {
  const {
    [ATTR.jsonrpcRequestId]: _id,
    [ATTR.mcpSessionId]: _session,
    [ATTR.mcpResourceUri]: _uri,
    ...rest
  } = attributes;
  return rest;
}
