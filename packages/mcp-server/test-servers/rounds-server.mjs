// Served tool()s and a prompt that list the client's roots, ask several questions in one round,
// keep their own state across input_required rounds, and a resource clients subscribe to: all
// through Junction's API (`servedContext`, `subscribe: true`, `server.resourceUpdated`,
// `server.listChanged`).
// Built dist; `stdio` serves on stdin/stdout, `http` prints its URL and serves Streamable HTTP.
import { tool } from "@junction/core";
import { z } from "zod";
import { createMCPServer, servedContext } from "../dist/index.js";
import { serveHTTP } from "../dist/node.js";
import { serveStdio } from "../dist/stdio.js";

const empty = z.object({});
const form = (message, name) => ({
  message,
  requestedSchema: { type: "object", properties: { [name]: { type: "string" } }, required: [name] },
});
const question = { messages: [{ role: "user", content: { type: "text", text: "Say hi" } }], maxTokens: 10 };
const note = (uri) => ({
  contents: [{ uri: uri.toString(), mimeType: "text/plain", text: `the note ${uri}` }],
});

const server = createMCPServer({
  name: "rounds-fixture",
  version: "1.0.0",
  // Known to the tests, which mint a round's state as an earlier version did.
  stateKey: "rounds-fixture: a state key of 32 bytes or more",
  tools: [
    tool({
      name: "list_roots",
      description: "Lists the client's roots",
      schema: empty,
      execute: async (_input, context) => {
        const { roots } = await servedContext(context).roots();
        return `roots: ${roots.map((root) => root.uri).join(", ")}`;
      },
    }),
    tool({
      name: "ask_all",
      description: "Asks a name, the model and the roots at once, then a colour",
      schema: empty,
      execute: async (_input, context) => {
        const served = servedContext(context);
        const [name, hi, { roots }] = await Promise.all([
          served.elicit(form("Your name?", "name"), { key: "name" }),
          served.sample(question, { key: "hi" }),
          served.roots({ key: "roots" }),
        ]);
        const colour = await served.elicit(form("Your colour?", "colour"), { key: "colour" });
        return `${name.content?.name} (${hi.content.text}, ${roots.length} roots) likes ${colour.content?.colour}`;
      },
    }),
    tool({
      name: "count_rounds",
      description: "Keeps a count of its runs in its own state, asking twice",
      schema: empty,
      execute: async (_input, context) => {
        const served = servedContext(context);
        const kept = served.state ?? { runs: 0 };
        served.setState({ runs: kept.runs + 1 });
        await served.elicit(form("First?", "first"), { key: "first" });
        await served.elicit(form("Second?", "second"), { key: "second" });
        return `runs before this one: ${served.state.runs - 1}`;
      },
    }),
    tool({
      name: "announce",
      description: "Tells clients a list changed",
      schema: z.object({ list: z.string() }),
      execute: async ({ list }) => {
        await server.listChanged(list);
        return `announced ${list}`;
      },
    }),
    tool({
      name: "touch",
      description: "Says a note changed; answers how many subscribers were told",
      schema: z.object({ uri: z.string() }),
      execute: async ({ uri }) => `told ${await server.resourceUpdated(uri)}`,
    }),
  ],
  resources: [
    { uri: "notes://watched", name: "watched", subscribe: true, read: note },
    { uri: "notes://plain", name: "plain", read: note },
  ],
  resourceTemplates: [{ uriTemplate: "drafts://{id}", name: "drafts", subscribe: true, read: note }],
  prompts: [
    {
      name: "with_context",
      description: "Asks the person for the context first",
      get: async (_args, context) => {
        const answer = await servedContext(context).elicit(form("Which context?", "context"), {
          key: "context",
        });
        const text = answer.action === "accept" ? `Use: ${answer.content?.context}` : "No context";
        return { messages: [{ role: "user", content: { type: "text", text } }] };
      },
    },
    {
      name: "with_model",
      description: "Asks the client's model first",
      get: async (_args, context) => {
        const answer = await servedContext(context).sample(question);
        return {
          messages: [{ role: "user", content: { type: "text", text: `Model: ${answer.content.text}` } }],
        };
      },
    },
  ],
});

if (process.argv[2] === "http") {
  const running = await serveHTTP(server, { port: 0, hostname: "127.0.0.1", rateLimit: false });
  process.stdout.write(`${running.url}\n`);
} else {
  serveStdio(server, { onError: (error) => process.stderr.write(`${error.message}\n`) });
}
