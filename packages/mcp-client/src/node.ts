// The package's entry under the "node" export condition (Node.js, Bun, Deno, and bundlers that
// target Node.js): everything the default entry has, plus the stdio transport, which spawns
// processes, and the lean Streamable HTTP transport's requests over node:http (much less work per
// request than fetch), both loaded on first use. Browsers and Workers load `index.ts`, which imports nothing Node-only.
import { provideNodeHttpExchange } from "./http-exchange.js";
import { provideStdioTransport } from "./stdio-support.js";

provideStdioTransport(async () => {
  const { StdioProcessTransport } = await import("./stdio-transport.js");
  return (options) => new StdioProcessTransport(options);
});

provideNodeHttpExchange(async () => {
  const { createNodeHttpExchange } = await import("./node-http-exchange.js");
  return createNodeHttpExchange();
});

export * from "./index.js";
