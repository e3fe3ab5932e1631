// Compile-time only (run by `pnpm type-check`): this package re-declares what an MCP connection's
// hooks hand it (`MCPTapMessage`, `MCPOutgoingRequest`) and the part of the connection's config it
// extends (`InstrumentableMCPConfig`), so it does not depend on `@junction/mcp-client`. The copies
// must stay the client's: each message the client taps is one telemetry reads, each request the
// same both ways, and a client's own config accepted by `instrumentMCP` and given back as it was
// (so `new MCP()` takes the result without a cast).
import type * as Client from "@junction/mcp-client";
import type { JunctionTelemetry } from "./junction-telemetry.js";
import type * as Ours from "./mcp-spans.js";

type Assert<T extends true> = T;
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assignable<From, To> = [From] extends [To] ? true : false;

declare const telemetry: JunctionTelemetry;
declare const config: Client.MCPConfig;

/** A connection's config, traced, is still a connection's config. */
export const traced: Client.MCPConfig = telemetry.instrumentMCP(config);

export type Checks = [
  // Telemetry reads any message the client taps (its own type is looser: a JSON-RPC message as a record).
  Assert<Assignable<Client.MCPWireMessage, Ours.MCPTapMessage>>,
  Assert<Mutual<Ours.MCPOutgoingRequest, Client.MCPOutgoingRequest>>,
  Assert<Assignable<Client.MCPConfig, Ours.InstrumentableMCPConfig>>,
  Assert<
    Mutual<
      NonNullable<Ours.InstrumentableMCPConfig["requestMeta"]>,
      NonNullable<Client.MCPConfig["requestMeta"]>
    >
  >,
];
