import type { McpServer, ServerContext } from "@modelcontextprotocol/server";
import type { MCPServedRequest, MCPServerOptions } from "./served-types.js";

type RequestHandler = (
  request: { method: string; params?: Record<string, unknown> },
  context: ServerContext,
) => Promise<unknown>;

/**
 * Runs `aroundRequest` around every request handler of one SDK server instance (the SDK has no
 * middleware of its own): what telemetry needs to open a server span per request and make it
 * the current context of the handler.
 */
export function wrapRequestHandlers(
  server: McpServer,
  aroundRequest: NonNullable<MCPServerOptions["aroundRequest"]>,
): void {
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, RequestHandler> })
    ._requestHandlers;
  if (!handlers) return;
  for (const [method, handler] of handlers) {
    handlers.set(method, (request, context) =>
      aroundRequest(servedRequest(server, method, request, context), () => handler(request, context)),
    );
  }
}

function servedRequest(
  server: McpServer,
  method: string,
  request: { params?: Record<string, unknown> },
  context: ServerContext,
): MCPServedRequest {
  const envelope = context.mcpReq.envelope as Record<string, unknown> | undefined;
  const version = envelope?.["io.modelcontextprotocol/protocolVersion"];
  const protocolVersion =
    typeof version === "string" ? version : server.server.getNegotiatedProtocolVersion?.();
  return {
    method,
    id: context.mcpReq.id,
    params: request.params ?? {},
    meta: (context.mcpReq._meta ?? {}) as Record<string, unknown>,
    transport: context.http ? "http" : "stdio",
    ...(context.sessionId ? { sessionId: context.sessionId } : {}),
    ...(protocolVersion ? { protocolVersion } : {}),
  };
}
