import type { Client } from "@modelcontextprotocol/client";

/**
 * Every member of the official SDK client that Junction reaches although it is not public API,
 * in one place. Each is looked up by name on the client at run time and may be missing in another
 * SDK version: the callers then fall back or fail with an error saying so, and
 * `sdk-internals.test.ts` fails loudly on the SDK version the workspace installs. (The third,
 * `_outboundMetaEnvelope`, is a protected hook `JunctionClient` overrides; the test pins it too.)
 */

/**
 * The SDK client's multi-round-trip (MRTR) fulfilment, which answers the embedded input requests
 * of an `input_required` result through the handlers registered on the client
 * (`elicitation/create`, `sampling/createMessage`, `roots/list`), with the SDK's validation of
 * requests and answers and elicitation defaults applied. Protected and private in the SDK's types.
 */
export interface InputRequiredDriver {
  _negotiatedWireCodec(): unknown;
  _resolveNonCompleteResult(
    decoded: { kind: "input_required"; inputRequests: Record<string, unknown>; requestState?: string },
    flow: {
      codec: unknown;
      request: { method: string; params: Record<string, unknown> };
      options: { signal: AbortSignal };
      flowStartedAt: number;
      retry: (params: Record<string, unknown>) => Promise<unknown>;
    },
  ): Promise<unknown>;
}

/** The client's MRTR driver, or `undefined` when this SDK version has none under these names. */
export function inputRequiredDriver(client: Client): InputRequiredDriver | undefined {
  const host = client as unknown as Partial<InputRequiredDriver>;
  return typeof host._resolveNonCompleteResult === "function" &&
    typeof host._negotiatedWireCodec === "function"
    ? (host as InputRequiredDriver)
    : undefined;
}

/**
 * The SDK's own SEP-2243 filter (what its `listTools()` applies to every page it returns: on
 * 2026-07-28, tools whose `x-mcp-header` declarations are invalid are left out), bound to the
 * client; `undefined` when this SDK version has none under that name.
 */
export function toolHeaderFilter(client: Client): ((page: Record<string, unknown>) => void) | undefined {
  const filter = (client as unknown as { _excludeInvalidXMcpHeaderTools?: (page: unknown) => void })
    ._excludeInvalidXMcpHeaderTools;
  return typeof filter === "function" ? (page) => filter.call(client, page) : undefined;
}
