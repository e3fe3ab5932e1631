// Served tool()s that use the request context through Junction's API (`servedContext`): logging,
// progress, sampling, elicitation (form and URL), cancellation and the client's capabilities.
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
let sawCancellation;
const cancelled = new Promise((resolve) => {
  sawCancellation = resolve;
});

const server = createMCPServer({
  name: "context-fixture",
  version: "1.0.0",
  logging: true,
  tools: [
    tool({
      name: "report",
      description: "Logs at debug, info and warning, and reports progress",
      schema: empty,
      execute: async (_input, context) => {
        const served = servedContext(context);
        for (const level of ["debug", "info", "warning"])
          await served.log(level, `a ${level} line`, "report");
        await served.progress({ progress: 1, total: 1, message: "done" });
        return "reported";
      },
    }),
    tool({
      name: "ask_model",
      description: "Asks the client's model for the capital of France",
      schema: empty,
      execute: async (_input, context) => {
        const answer = await servedContext(context).sample({
          messages: [{ role: "user", content: { type: "text", text: "What is the capital of France?" } }],
          maxTokens: 20,
        });
        return `The model said: ${answer.content.text}`;
      },
    }),
    tool({
      name: "ask_person",
      description: "Asks a name, then a colour",
      schema: empty,
      execute: async (_input, context) => {
        const served = servedContext(context);
        const name = await served.elicit(form("Your name?", "name"));
        if (name.action !== "accept") return `no name (${name.action})`;
        const colour = await served.elicit(form(`What colour does ${name.content.name} like?`, "colour"));
        return `${name.content.name} likes ${colour.action === "accept" ? colour.content.colour : "nothing"}`;
      },
    }),
    tool({
      name: "confirm",
      description: "Asks the person to confirm",
      schema: empty,
      execute: async (_input, context) => {
        const answer = await servedContext(context).elicit(form("Proceed?", "ok"));
        return `confirm: ${answer.action}`;
      },
    }),
    tool({
      name: "ask_keyed",
      description: "Asks a name under its own input-request key",
      schema: empty,
      execute: async (_input, context) => {
        const answer = await servedContext(context).elicit(form("Your name?", "name"), { key: "user_name" });
        return `Hello, ${answer.content?.name ?? "nobody"}!`;
      },
    }),
    tool({
      name: "open_link",
      description: "Asks the person to open a URL",
      schema: empty,
      execute: async (_input, context) => {
        const answer = await servedContext(context).elicit({
          mode: "url",
          message: "Sign in to continue",
          url: "https://example.com/sign-in",
          elicitationId: "sign-in-1",
        });
        return `url elicitation: ${answer.action}`;
      },
    }),
    tool({
      name: "capabilities",
      description: "What the client declared, and whether the call is served",
      schema: empty,
      execute: async (_input, context) => {
        const served = servedContext(context);
        return JSON.stringify({ era: served.era, capabilities: served.clientCapabilities });
      },
    }),
    tool({
      name: "wait_for_cancel",
      description: "Reports progress, then waits until the client cancels",
      schema: empty,
      execute: async (_input, context) => {
        const served = servedContext(context);
        await new Promise((resolve) => {
          served.signal.addEventListener("abort", resolve, { once: true });
          served.progress({ progress: 0, message: "waiting" });
        });
        sawCancellation(served.signal.reason === undefined ? "aborted" : "aborted with a reason");
        return "cancelled";
      },
    }),
    tool({
      name: "cancellations",
      description: "Resolves once a call of wait_for_cancel saw its cancellation",
      schema: empty,
      execute: async () => `the tool saw: ${await cancelled}`,
    }),
    tool({
      name: "local_only",
      description: "Whether a call outside a server has a served context",
      schema: empty,
      execute: async (_input, context) => String(servedContext(context) === undefined),
    }),
  ],
});

if (process.argv[2] === "http") {
  const running = await serveHTTP(server, { port: 0, hostname: "127.0.0.1", rateLimit: false });
  process.stdout.write(`${running.url}\n`);
} else {
  serveStdio(server, { onError: (error) => process.stderr.write(`${error.message}\n`) });
}
