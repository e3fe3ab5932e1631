// An upstream MCP server built with the SDK alone (no Junction), over stdio, both eras: tools that
// ask the client (elicitation, sampling) during a call, and one that waits for its cancellation.
// On 2025-11-25 it sends the requests within the call; on 2026-07-28 it answers input_required.
// It reports on stderr what its tools saw.
import { inputRequired, McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { z } from "zod";

const NAME_REQUEST = {
  mode: "form",
  message: "What is your name?",
  requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
};
const MODEL_REQUEST = {
  messages: [{ role: "user", content: { type: "text", text: "What is the capital of France?" } }],
  maxTokens: 50,
};

function text(value) {
  return { content: [{ type: "text", text: value }] };
}

/** The client's answer to `key`: a 2026-07-28 retry's input response, or a 2025 request's result. */
async function ask(era, ctx, { key, method, params }) {
  if (era === "modern") return ctx.mcpReq.inputResponses?.[key];
  return method === "elicitation/create"
    ? ctx.mcpReq.elicitInput(params)
    : ctx.mcpReq.requestSampling(params);
}

serveStdio(({ era }) => {
  const server = new McpServer({ name: "asking", version: "1.0.0" });
  server.registerTool("ask_name", { description: "Asks the user for their name" }, async (ctx) => {
    const answer = await ask(era, ctx, { key: "name", method: "elicitation/create", params: NAME_REQUEST });
    if (answer === undefined) {
      return inputRequired({
        inputRequests: { name: { method: "elicitation/create", params: NAME_REQUEST } },
      });
    }
    return answer.action === "accept"
      ? text(`Hello, ${answer.content.name}!`)
      : text(`No name (${answer.action}).`);
  });
  server.registerTool("ask_model", { description: "Asks the client's model a question" }, async (ctx) => {
    const answer = await ask(era, ctx, {
      key: "capital",
      method: "sampling/createMessage",
      params: MODEL_REQUEST,
    });
    if (answer === undefined) {
      return inputRequired({
        inputRequests: { capital: { method: "sampling/createMessage", params: MODEL_REQUEST } },
      });
    }
    return text(`The model (${answer.model}) said: ${answer.content.text}`);
  });
  server.registerTool(
    "wait",
    { description: "Waits until cancelled", inputSchema: z.object({ label: z.string().optional() }) },
    async ({ label }, ctx) => {
      process.stderr.write(`wait started ${label ?? ""}\n`);
      await new Promise((resolve) => ctx.mcpReq.signal.addEventListener("abort", resolve, { once: true }));
      process.stderr.write(`wait aborted ${label ?? ""}\n`);
      return text("cancelled");
    },
  );
  return server;
});
