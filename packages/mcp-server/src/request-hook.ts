import type { McpServer, ServerContext } from "@modelcontextprotocol/server";
import type { MCPServedRequest, MCPServerOptions } from "./served-types.js";

/** A request handler as the SDK keeps it (after its own wrapping: validation, cache hints). */
export type SDKRequestHandler = (
  request: { method: string; params?: Record<string, unknown> },
  context: ServerContext,
) => Promise<unknown>;

/**
 * The request handlers of one SDK server instance, by method, where the SDK keeps them. The one
 * place Junction reaches into the SDK's private state: `@modelcontextprotocol/server` 2.4 has no
 * public seam to run code around its handlers (its `_wrapHandler` hook is protected, on a `Server`
 * that `McpServer` constructs itself) or to answer a `tools/call` with something other than the
 * tool's result (a task); see typescript-sdk#2507. `undefined` if a later SDK keeps them elsewhere.
 */
export function sdkRequestHandlers(server: McpServer): Map<string, SDKRequestHandler> | undefined {
  const handlers = (server.server as unknown as { _requestHandlers?: unknown })._requestHandlers;
  return handlers instanceof Map ? (handlers as Map<string, SDKRequestHandler>) : undefined;
}

/**
 * Runs `aroundRequest` around every request handler of one SDK server instance (the SDK has no
 * middleware of its own): what telemetry needs to open a server span per request and make it
 * the current context of the handler.
 */
export function wrapRequestHandlers(
  server: McpServer,
  aroundRequest: NonNullable<MCPServerOptions["aroundRequest"]>,
): void {
  const handlers = sdkRequestHandlers(server);
  if (!handlers) return;
  for (const [method, handler] of handlers) {
    handlers.set(method, (request, context) =>
      aroundRequest(servedRequest({ server, method }, request, context), () => handler(request, context)),
    );
  }
}

function servedRequest(
  { server, method }: { server: McpServer; method: string },
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
