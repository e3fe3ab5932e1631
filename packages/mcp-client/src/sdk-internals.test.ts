// Pins the SDK client members Junction reaches although they are not public API (the one
// function in sdk-internals.ts): this fails, naming the member, on the day an SDK upgrade renames
// one, instead of Junction quietly falling back (task input unanswerable, headers unfiltered, the log
// level no longer sent on 2026-07-28).
import { Client } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { CLIENT_INFO, JunctionClient } from "./mcp-session.js";
import { sdkClientInternals } from "./sdk-internals.js";

describe("the SDK client members Junction reaches", () => {
  const client = new JunctionClient(CLIENT_INFO, { capabilities: {} });

  it("has the multi-round-trip driver that answers a task's input requests", () => {
    expect(
      sdkClientInternals(client).resolveInputRequired,
      "Client._resolveNonCompleteResult / _negotiatedWireCodec (typescript-sdk#2313)",
    ).toBeDefined();
  });

  it("has the SEP-2243 tool header filter listTools() applies", () => {
    expect(
      sdkClientInternals(client).excludeInvalidHeaderTools,
      "Client._excludeInvalidXMcpHeaderTools (typescript-sdk#2327)",
    ).toBeDefined();
  });

  it("calls the _outboundMetaEnvelope hook JunctionClient overrides to send the log level", () => {
    expect(
      typeof (Client.prototype as unknown as Record<string, unknown>)._outboundMetaEnvelope,
      "Client.prototype._outboundMetaEnvelope",
    ).toBe("function");
    expect(Object.hasOwn(JunctionClient.prototype, "_outboundMetaEnvelope")).toBe(true);
  });

  it("finds none of them on an object that is not an SDK client, so callers take their fallback", () => {
    const stranger = {} as Client;
    expect(sdkClientInternals(stranger).resolveInputRequired).toBeUndefined();
    expect(sdkClientInternals(stranger).excludeInvalidHeaderTools).toBeUndefined();
  });
});
