import { type Attributes, context, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { ATTR } from "./semconv.js";
import { nowMs, type Shared } from "./shared.js";
import { extractTraceContext } from "./trace-context.js";

/** A request an MCP server is about to handle (`@junction/mcp-server`'s `MCPServedRequest`). */
export interface MCPServedRequest {
  method: string;
  id: string | number;
  params: Record<string, unknown>;
  /** The request's `_meta`: where the caller's `traceparent` (and `tracestate`, `baggage`) is. */
  meta: Record<string, unknown>;
  transport: "stdio" | "http";
  sessionId?: string;
  protocolVersion?: string;
}

/**
 * The part of an MCP server's options (`@junction/mcp-server`'s `MCPServerOptions`) that
 * telemetry extends: the hook run around every request.
 */
export interface InstrumentableMCPServerOptions {
  /** The server's name. */
  name: string;
  aroundRequest?: (request: MCPServedRequest, handle: () => Promise<unknown>) => Promise<unknown>;
}

const MAX_STATUS_CHARS = 256;

/**
 * `options` with an `aroundRequest` that opens a SERVER span `{mcp.method.name} {target}` per
 * request, continuing the caller's trace from `_meta` (else under the current context), makes it
 * the current span while the handler runs (a served agent's spans become its children), and
 * records `mcp.server.operation.duration`. The options' own `aroundRequest` runs inside it.
 */
export function instrumentMCPServerOptions<T extends InstrumentableMCPServerOptions>(
  shared: Shared,
  options: T,
): T {
  const theirs = options.aroundRequest;
  return {
    ...options,
    aroundRequest: async (request: MCPServedRequest, handle: () => Promise<unknown>) => {
      const attributes = serverAttributes(request);
      const parent = extractTraceContext(request.meta) ?? context.active();
      const target = targetOf(request);
      const span = shared.tracer.startSpan(
        target ? `${request.method} ${target}` : request.method,
        { kind: SpanKind.SERVER, attributes },
        parent,
      );
      const startedAt = nowMs();
      let failure: { errorType: string; statusCode?: string; description?: string } | undefined;
      try {
        const result = await context.with(trace.setSpan(parent, span), () =>
          theirs ? theirs(request, handle) : handle(),
        );
        if (request.method === "tools/call" && isRecord(result) && result.isError === true) {
          failure = { errorType: "tool_error" };
        }
        return result;
      } catch (error) {
        // A JSON-RPC error carries its numeric code; Junction's errors a string `code`.
        const raw = isRecord(error) ? error.code : undefined;
        const code = typeof raw === "number" ? String(raw) : undefined;
        failure = {
          errorType: code ?? (typeof raw === "string" ? raw : "_OTHER"),
          ...(code ? { statusCode: code } : {}),
          description: describe(error).slice(0, MAX_STATUS_CHARS),
        };
        throw error;
      } finally {
        const outcome: Attributes = failure
          ? {
              [ATTR.errorType]: failure.errorType,
              ...(failure.statusCode ? { [ATTR.rpcResponseStatusCode]: failure.statusCode } : {}),
            }
          : {};
        if (failure) {
          span.setAttributes(outcome);
          span.setStatus({ code: SpanStatusCode.ERROR, message: failure.description ?? failure.errorType });
        }
        span.end(nowMs());
        const {
          [ATTR.jsonrpcRequestId]: _id,
          [ATTR.mcpSessionId]: _session,
          [ATTR.mcpResourceUri]: _uri,
          ...metricAttributes
        } = attributes;
        shared.mcpServerDuration.record((nowMs() - startedAt) / 1000, { ...metricAttributes, ...outcome });
      }
    },
  };
}

function serverAttributes(request: MCPServedRequest): Attributes {
  const attributes: Attributes = {
    [ATTR.mcpMethodName]: request.method,
    [ATTR.jsonrpcRequestId]: String(request.id),
    [ATTR.networkTransport]: request.transport === "stdio" ? "pipe" : "tcp",
    ...(request.transport === "http" ? { [ATTR.networkProtocolName]: "http" } : {}),
    ...(request.protocolVersion ? { [ATTR.mcpProtocolVersion]: request.protocolVersion } : {}),
    ...(request.sessionId ? { [ATTR.mcpSessionId]: request.sessionId } : {}),
  };
  const { name, uri } = request.params;
  if (request.method === "tools/call" && typeof name === "string") {
    attributes[ATTR.toolName] = name;
    attributes[ATTR.operationName] = "execute_tool";
  }
  if (request.method === "prompts/get" && typeof name === "string") attributes[ATTR.promptName] = name;
  if (request.method.startsWith("resources/") && typeof uri === "string")
    attributes[ATTR.mcpResourceUri] = uri;
  return attributes;
}

/** The low-cardinality target of a span name: the tool's or the prompt's name. */
function targetOf(request: MCPServedRequest): string | undefined {
  const name = request.params.name;
  return (request.method === "tools/call" || request.method === "prompts/get") && typeof name === "string"
    ? name
    : undefined;
}

/** The thrown value's message (this package depends on the OpenTelemetry API only, not on Junction's helpers). */
function describe(error: unknown): string {
  if (isRecord(error) && typeof error.message === "string") return error.message;
  return typeof error === "string" ? error : "_OTHER";
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}
