// A worker process for resume-once.test.ts: resumes each stored state it is sent, with the
// decisions it is sent, through the counting MCP server (a server process of its own over stdio,
// logging every call it gets to the file both workers' servers share), sharing resume claims with
// the other worker through a folder. Replies with the run's finish reason or the error's code.
import { fileURLToPath } from "node:url";
import { Agent, annotationPolicy } from "@junction/core";
import { fileResumeClaims } from "@junction/core/node";
import { scriptedModel } from "@junction/core/testing";
import { MCP } from "@junction/mcp-client";

const [claimsDir, serverLog] = process.argv.slice(2);
const claims = fileResumeClaims(claimsDir);
const tracker = new MCP({
  transport: "stdio",
  command: process.execPath,
  args: [fileURLToPath(new URL("./counting-server.mjs", import.meta.url)), serverLog],
});
await tracker.connect();
process.on("message", async ({ id, state, decisions }) => {
  const agent = new Agent({
    provider: scriptedModel([{ text: "done" }]),
    model: "m",
    mcps: [{ mcp: tracker, prefix: "tracker" }],
    approval: annotationPolicy(),
    resumeClaims: claims,
  });
  try {
    const result = await agent.resume({ state, decisions }).final;
    process.send({ id, outcome: result.finishReason });
  } catch (error) {
    process.send({ id, outcome: error.code ?? String(error) });
  }
});
process.on("disconnect", () => {
  void tracker.close().finally(() => process.exit(0));
});
process.send({ ready: true });
