// The package's entry under the "node" export condition (Node.js, Bun, Deno, and bundlers that
// target Node.js): everything the default entry has, plus the stdio transport, which spawns
// processes. Browsers and Workers load `index.ts`, which imports nothing Node-only.
import { provideStdioTransport } from "./stdio-support.js";

provideStdioTransport(async () => {
  const { StdioProcessTransport } = await import("./stdio-transport.js");
  return (options) => new StdioProcessTransport(options);
});

export * from "./index.js";
