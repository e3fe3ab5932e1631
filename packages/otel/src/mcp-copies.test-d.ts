// Compile-time only (run by `pnpm type-check`): this package re-declares what MCP hooks hand it
// and the parts of the options it extends, so it depends neither on `@junction/mcp-server` nor on
// `@junction/mcp-client`. The copies must stay theirs: the request a server hands `aroundRequest`
// (`MCPServedRequest`) the same both ways, the requests a connection's `requestMeta` is asked
// about (`MCPOutgoingRequest`) too, each message a connection taps (`MCPTapMessage`) one
// telemetry reads; and a server's or a connection's own options accepted by `instrumentMCPServer`
// and `instrumentMCP` and given back as they were (so `createMCPServer` and `new MCP()` take the
// result without a cast).
import type * as Client from "@junction/mcp-client";
import type * as Server from "@junction/mcp-server";
import type { JunctionTelemetry } from "./junction-telemetry.js";
import type * as OursServer from "./mcp-server-spans.js";
import type * as OursClient from "./mcp-spans.js";

type Assert<T extends true> = T;
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assignable<From, To> = [From] extends [To] ? true : false;
/** Two optional hooks of the same type, each usable where the other is. */
type SameHook<A, B> = Mutual<NonNullable<A>, NonNullable<B>>;

declare const telemetry: JunctionTelemetry;
declare const serverOptions: Server.MCPServerOptions;
declare const config: Client.MCPConfig;

/** A server's options, traced, are still a server's options. */
export const tracedServer: Server.MCPServerOptions = telemetry.instrumentMCPServer(serverOptions);

/** A connection's config, traced, is still a connection's config. */
export const tracedConnection: Client.MCPConfig = telemetry.instrumentMCP(config);

export type ServerChecks = [
  Assert<Mutual<OursServer.MCPServedRequest, Server.MCPServedRequest>>,
  Assert<Assignable<Server.MCPServerOptions, OursServer.InstrumentableMCPServerOptions>>,
  Assert<
    SameHook<
      OursServer.InstrumentableMCPServerOptions["aroundRequest"],
      Server.MCPServerOptions["aroundRequest"]
    >
  >,
];

export type ClientChecks = [
  // Telemetry reads any message the client taps (its own type is looser: a JSON-RPC message as a record).
  Assert<Assignable<Client.MCPWireMessage, OursClient.MCPTapMessage>>,
  Assert<Mutual<OursClient.MCPOutgoingRequest, Client.MCPOutgoingRequest>>,
  Assert<Assignable<Client.MCPConfig, OursClient.InstrumentableMCPConfig>>,
  Assert<SameHook<OursClient.InstrumentableMCPConfig["requestMeta"], Client.MCPConfig["requestMeta"]>>,
];
