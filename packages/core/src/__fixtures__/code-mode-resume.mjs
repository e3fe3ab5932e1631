// Resumes a stopped code-mode run in a process of its own, thirty days after it stopped: the
// counting server over stdio, the QuickJS sandbox, claims shared through a folder. Prints the
// run's finish reason and the program's result as JSON on stdout.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Agent, annotationPolicy } from "@junction/core";
import { fileResumeClaims } from "@junction/core/node";
import { scriptedModel } from "@junction/core/testing";
import { MCP } from "@junction/mcp-client";
import { quickjsSandbox } from "@junction/sandbox-quickjs";

const [statePath, serverLog, claimsDir] = process.argv.slice(2);
const realNow = Date.now;
Date.now = () => realNow() + 30 * 24 * 3600 * 1000;
const tracker = new MCP({
  transport: "stdio",
  command: process.execPath,
  args: [fileURLToPath(new URL("./counting-server.mjs", import.meta.url)), serverLog],
});
await tracker.connect();
const provider = scriptedModel([{ text: "done" }]);
const agent = new Agent({
  provider,
  model: "m",
  mcps: [{ mcp: tracker, prefix: "tracker" }],
  approval: annotationPolicy(),
  codeMode: { sandbox: quickjsSandbox() },
  resumeClaims: fileResumeClaims(claimsDir),
});
const state = JSON.parse(readFileSync(statePath, "utf8"));
try {
  const result = await agent.resume({ state, decisions: { [state.pending[0].id]: "approve" } }).final;
  const toolMessage = provider.requests[0].messages.at(-1);
  console.log(JSON.stringify({ finishReason: result.finishReason, program: toolMessage.content[0].output }));
} catch (error) {
  console.log(JSON.stringify({ error: error.code ?? String(error) }));
} finally {
  await tracker.close();
}
