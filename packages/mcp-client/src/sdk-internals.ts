import type { Client } from "@modelcontextprotocol/client";

/** The `input_required` result {@link SDKClientInternals.resolveInputRequired} answers. */
export interface InputRequired {
  kind: "input_required";
  inputRequests: Record<string, unknown>;
  requestState?: string;
}

/** The request whose `input_required` result is answered, and how it is sent again. */
export interface InputRequiredFlow {
  request: { method: string; params: Record<string, unknown> };
  options: { signal: AbortSignal };
  flowStartedAt: number;
  retry: (params: Record<string, unknown>) => Promise<unknown>;
}

/**
 * What Junction reaches of an official SDK client beyond its public API, each bound to the
 * client; a member is `undefined` when this SDK version has it under no such name, and the
 * callers then fall back or fail with an error saying so.
 */
export interface SDKClientInternals {
  /**
   * The client's multi-round-trip (MRTR, SEP-2322) fulfilment, which answers the embedded input
   * requests of an `input_required` result through the handlers registered on the client
   * (`elicitation/create`, `sampling/createMessage`, `roots/list`), with the SDK's validation of
   * requests and answers and elicitation defaults applied: `_resolveNonCompleteResult` with the
   * codec of `_negotiatedWireCodec` (protected and private, added with the MRTR engine,
   * typescript-sdk#2313). The tasks extension's client half (typescript-sdk#2782, open) is the
   * public way to answer a task's input once it is released.
   */
  resolveInputRequired?: (decoded: InputRequired, flow: InputRequiredFlow) => Promise<unknown>;
  /**
   * The SDK's own SEP-2243 filter, what its `listTools()` applies to every page it returns (on
   * 2026-07-28, tools whose `x-mcp-header` declarations are invalid are left out):
   * `_excludeInvalidXMcpHeaderTools`, private since it came in typescript-sdk#2327.
   */
  excludeInvalidHeaderTools?: (page: Record<string, unknown>) => void;
}

/**
 * The one place Junction reaches SDK client members that are not public API: each is looked up by
 * name on the client at run time. `sdk-internals.test.ts` fails loudly, naming the member, on the
 * SDK version the workspace installs when one is missing. (The one other member, the protected
 * `_outboundMetaEnvelope` hook, is overridden by `JunctionClient` in `mcp-session.ts`, as a
 * subclass may; the test pins it too.)
 */
export function sdkClientInternals(client: Client): SDKClientInternals {
  const host = client as unknown as {
    _resolveNonCompleteResult?: (
      decoded: InputRequired,
      flow: InputRequiredFlow & { codec: unknown },
    ) => Promise<unknown>;
    _negotiatedWireCodec?: () => unknown;
    _excludeInvalidXMcpHeaderTools?: (page: Record<string, unknown>) => void;
  };
  const resolve = host._resolveNonCompleteResult;
  const codec = host._negotiatedWireCodec;
  const exclude = host._excludeInvalidXMcpHeaderTools;
  return {
    ...(typeof resolve === "function" && typeof codec === "function"
      ? {
          resolveInputRequired: (decoded: InputRequired, flow: InputRequiredFlow) =>
            resolve.call(client, decoded, { ...flow, codec: codec.call(client) }),
        }
      : {}),
    ...(typeof exclude === "function"
      ? { excludeInvalidHeaderTools: (page: Record<string, unknown>) => exclude.call(client, page) }
      : {}),
  };
}
