import { JunctionError } from "@junction/types";
import type { StdioProcessTransport, StdioProcessTransportOptions } from "./stdio-transport.js";

/** Starts a stdio server's process; what the "node" entry gives {@link provideStdioTransport}. */
export type StdioTransportFactory = (options: StdioProcessTransportOptions) => StdioProcessTransport;

/** Loads the stdio transport's module on first use, so spawning code costs nothing until a stdio connect. */
export type StdioTransportLoader = () => Promise<StdioTransportFactory>;

// Set by the package's "node" entry (Node.js, Bun, Deno), which is the one that may import
// `node:child_process`; left unset in the default entry, which browsers and Workers bundle.
let loadStdioTransport: StdioTransportLoader | undefined;

/** Called once by the "node" entry: from then on a stdio config starts its server's process. */
export function provideStdioTransport(loader: StdioTransportLoader): void {
  loadStdioTransport = loader;
}

/**
 * The factory of stdio transports, or an `mcp-transport-unsupported` error that names the runtime
 * and what to do when this copy of the package was loaded through its default entry.
 */
export async function stdioTransportFactory(serverName: string): Promise<StdioTransportFactory> {
  if (loadStdioTransport) return loadStdioTransport();
  throw new JunctionError(
    "mcp-transport-unsupported",
    `MCP server "${serverName}" uses the stdio transport, which starts a process, and ${describeRuntime()} cannot: ` +
      `this is @junction/mcp-client's default entry (for browsers and Workers), which has no stdio. ` +
      `Connect to the server over Streamable HTTP instead ({ transport: "http", url }), or run this code in ` +
      `Node.js, Bun or Deno, where the package's "node" export condition loads the entry with stdio ` +
      `(a bundler targeting Node.js must keep that condition, as esbuild's platform "node" does).`,
  );
}

/** The runtime this code runs in, as far as its globals tell, for the error above. */
export function describeRuntime(scope: object = globalThis): string {
  const runtime = scope as {
    Deno?: { version?: { deno?: string } };
    Bun?: { version?: string };
    process?: { versions?: { node?: string } };
    navigator?: { userAgent?: string };
    document?: unknown;
    WorkerGlobalScope?: unknown;
  };
  if (runtime.Deno?.version?.deno) return `this runtime (Deno ${runtime.Deno.version.deno})`;
  if (runtime.Bun?.version) return `this runtime (Bun ${runtime.Bun.version})`;
  const userAgent = runtime.navigator?.userAgent ?? "";
  if (userAgent === "Cloudflare-Workers") return "this runtime (Cloudflare Workers)";
  if (runtime.process?.versions?.node) return `this runtime (Node.js ${runtime.process.versions.node})`;
  if (runtime.document !== undefined) return "this runtime (a browser page)";
  if (runtime.WorkerGlobalScope !== undefined) return "this runtime (a web worker)";
  return "this runtime";
}
