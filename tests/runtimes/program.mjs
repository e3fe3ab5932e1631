// The program a user runs on each runtime: an Agent turn with the scripted model, an MCP server
// over Streamable HTTP, and a Chat Completions turn that calls that server's tool. Plain
// JavaScript with the packages' public imports, so Node.js, Bun and Deno run it as it is and
// esbuild bundles it for browsers and Workers. It returns what happened, as JSON, for the test.
import { Agent, tool } from "@junction/core";
import { scriptedModel } from "@junction/core/testing";
import { MCP } from "@junction/mcp-client";
import { chatCompletions } from "@junction/provider-chatcompletions";
import { z } from "zod";

/**
 * Runs the program.
 * @param {{ mcpURL: string, chatBaseURL: string, stdio: { command: string, args: string[] } }} options
 */
export async function runProgram({ mcpURL, chatBaseURL, stdio }) {
  // 1. An Agent turn with the scripted model and a local tool.
  const add = tool({
    name: "add",
    description: "Adds two numbers",
    schema: z.object({ a: z.number(), b: z.number() }),
    execute: async ({ a, b }) => String(a + b),
  });
  const scripted = scriptedModel([
    { toolCalls: [{ name: "add", input: { a: 2, b: 3 } }] },
    { text: "2 + 3 = 5." },
  ]);
  const scriptedTurn = await new Agent({ provider: scripted, model: "scripted", tools: [add] }).send(
    "What is 2 + 3?",
  ).final;
  const agent = {
    text: scriptedTurn.text,
    toolResultSent: scripted.requests[1]?.messages.at(-1)?.content?.[0]?.output ?? null,
  };

  // 2. MCP over Streamable HTTP.
  const everything = new MCP({ transport: "http", url: mcpURL, name: "everything", sseFallback: false });
  await everything.connect();
  try {
    const echo = await everything.callTool("echo", { message: "hello over HTTP" });
    const mcp = { kind: everything.serverInfo?.name ?? null, echo: echo.content };

    // 3. A Chat Completions turn whose model calls the MCP server's tool. No key: the endpoint
    //    needs none, so the page or Worker holds none (hence dangerouslyAllowBrowser).
    const provider = chatCompletions({
      baseURL: chatBaseURL,
      apiKey: "",
      maxRetries: 0,
      dangerouslyAllowBrowser: true,
    });
    const chatAgent = new Agent({ provider, model: "local-model", mcps: [everything] });
    const handle = chatAgent.send("Say hello through the echo tool.");
    const toolCalls = [];
    const toolResults = [];
    for await (const event of handle) {
      if (event.type === "tool-call") toolCalls.push({ name: event.name, input: event.input });
      if (event.type === "tool-result") toolResults.push({ name: event.name, content: event.result.content });
    }
    const chatTurn = await handle.final;
    const chat = { toolCalls, toolResults, text: chatTurn.text, finishReason: chatTurn.finishReason };

    // 4. stdio: a server process where the runtime can start one, a clear error where it cannot.
    const local = new MCP({ transport: "stdio", name: "local", command: stdio.command, args: stdio.args });
    let stdioOutcome;
    try {
      await local.connect();
      const result = await local.callTool("echo", { message: "hello over stdio" });
      stdioOutcome = { echo: result.content };
    } catch (error) {
      stdioOutcome = { error: { code: error.code, message: error.message } };
    } finally {
      await local.close();
    }
    return { agent, mcp, chat, stdio: stdioOutcome };
  } finally {
    await everything.close();
  }
}
