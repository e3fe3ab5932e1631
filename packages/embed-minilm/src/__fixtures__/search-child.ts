// A process that runs one tool search with the local model over three deferred tools, then
// prints what the model did: `node --import ./resolve-typescript.ts search-child.ts <cache folder>`.
import { Agent } from "@junction/core";
import { scriptedModel } from "@junction/core/testing";
import { miniLM } from "../index.js";

const embed = miniLM({ cacheDirectory: process.argv[2]! });
const tool = (name: string, description: string) => ({
  name,
  description,
  inputSchema: { type: "object", properties: {} },
  defer: true,
  execute: async () => "ok",
});
const provider = scriptedModel([
  { toolCalls: [{ id: "s1", name: "search_tools", input: { query: "will it rain in Oslo tomorrow" } }] },
  { text: "done" },
]);
const agent = new Agent({
  provider,
  model: "m",
  tools: [
    tool("get_weather", "Gets the current weather and the forecast for a city."),
    tool("create_issue", "Creates an issue in a GitHub repository."),
    tool("send_email", "Sends an email message to a recipient."),
  ],
  toolSearch: { embed },
});
const handle = agent.send("will it rain in Oslo tomorrow");
const found: unknown[] = [];
for await (const event of handle) if (event.type === "tool-search") found.push(event);
const result = await handle.final;
agent.close();
const vectors = await embed(["will it rain in Oslo tomorrow"]);
await embed.close();
process.stdout.write(
  `${JSON.stringify({ stats: embed.stats, found, warnings: result.warnings, query: vectors[0] })}\n`,
);
