// Compile-time only (run by `pnpm type-check`): this package re-declares the request an MCP server
// hands `aroundRequest` (`MCPServedRequest`) and the part of the server's options it extends, so
// it does not depend on `@junction/mcp-server`. The copies must stay the server's: each request
// type assignable to the other, and a server's own options accepted by `instrumentMCPServer` and
// given back as they were (so `createMCPServer` takes the result without a cast).
import type * as Server from "@junction/mcp-server";
import type { JunctionTelemetry } from "./junction-telemetry.js";
import type * as Ours from "./mcp-server-spans.js";

type Assert<T extends true> = T;
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assignable<From, To> = [From] extends [To] ? true : false;

declare const telemetry: JunctionTelemetry;
declare const options: Server.MCPServerOptions;

/** A server's options, traced, are still a server's options. */
export const traced: Server.MCPServerOptions = telemetry.instrumentMCPServer(options);

export type Checks = [
  Assert<Mutual<Ours.MCPServedRequest, Server.MCPServedRequest>>,
  Assert<Assignable<Server.MCPServerOptions, Ours.InstrumentableMCPServerOptions>>,
  Assert<
    Mutual<
      NonNullable<Ours.InstrumentableMCPServerOptions["aroundRequest"]>,
      NonNullable<Server.MCPServerOptions["aroundRequest"]>
    >
  >,
];
