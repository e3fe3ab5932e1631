// Plain tool()s served as tasks (built dist), over stdio or HTTP as a client spawns it:
//   node task-tools-server.mjs [http]
// `publish_report` (task support "required") reports its progress, asks which format, then
// publishes, once per run (counted by `publications`); `count_down` ("optional") reports
// progress, then answers, or waits until its task is cancelled (counted by `cancellations`); `echo`
// ("forbidden", the default) answers plainly; `sign_up` ("required") asks a name before its task
// (an input_required round on 2026-07-28), then signs up in the task (counted by `sign_ups`);
// `break_protocol` ("optional") throws a ProtocolError.
import { tool } from "@junction/core";
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { z } from "zod";
import { createMCPServer, servedContext, withTaskSupport } from "../dist/index.js";
import { serveHTTP } from "../dist/node.js";
import { serveStdio } from "../dist/stdio.js";

const empty = z.object({});
const published = [];
let cancelled = 0;
const signedUp = [];

const server = createMCPServer({
  name: "task-tools",
  version: "1.0.0",
  tasks: { pollIntervalMs: 20 },
  tools: [
    withTaskSupport(
      tool({
        name: "publish_report",
        description: "Builds a report, asks its format, publishes it",
        schema: z.object({ title: z.string() }),
        execute: async ({ title }, context) => {
          const served = servedContext(context);
          await served.progress({ progress: 1, total: 2, message: "Gathered the data" });
          const format = await served.elicit(
            {
              message: `Which format for "${title}"?`,
              requestedSchema: {
                type: "object",
                properties: { format: { type: "string", enum: ["pdf", "html"] } },
                required: ["format"],
              },
            },
            { key: "format" },
          );
          if (format.action !== "accept")
            return { content: [{ type: "text", text: "Not published." }], isError: true };
          published.push(`${title}.${String(format.content?.format)}`);
          return `Published ${title} as ${String(format.content?.format)}`;
        },
      }),
      "required",
    ),
    withTaskSupport(
      tool({
        name: "count_down",
        description: "Counts down, then (with `wait`) waits until cancelled",
        schema: z.object({ from: z.number().int().min(1), wait: z.boolean() }),
        execute: async ({ from, wait }, context) => {
          const served = servedContext(context);
          for (let left = from; left >= 1; left--) {
            await served.progress({ progress: from - left + 1, total: from, message: `${left} left` });
          }
          if (!wait) return `Counted down from ${from}`;
          await served.progress({
            progress: from,
            total: from,
            message: "Counted down; waiting to be cancelled",
          });
          await new Promise((resolve) => served.signal.addEventListener("abort", resolve, { once: true }));
          cancelled += 1;
          return "cancelled";
        },
      }),
      "optional",
    ),
    withTaskSupport(
      tool({
        name: "sign_up",
        description: "Asks a name (before its task, on 2026-07-28), then signs up in a task",
        schema: empty,
        execute: async (_input, context) => {
          const served = servedContext(context);
          const answer = await served.elicit(
            {
              message: "Your name?",
              requestedSchema: {
                type: "object",
                properties: { name: { type: "string" } },
                required: ["name"],
              },
            },
            { key: "name" },
          );
          await served.startTask();
          signedUp.push(String(answer.content?.name));
          return `Signed up ${String(answer.content?.name)}`;
        },
      }),
      "required",
      { askBeforeTask: true },
    ),
    tool({
      name: "sign_ups",
      description: "Who sign_up signed up, in order",
      schema: empty,
      execute: async () => JSON.stringify(signedUp),
    }),
    withTaskSupport(
      tool({
        name: "break_protocol",
        description: "Fails outside the tool: a ProtocolError",
        schema: empty,
        execute: async () => {
          throw new ProtocolError(ProtocolErrorCode.InternalError, "the backend went away");
        },
      }),
      "optional",
    ),
    tool({
      name: "publications",
      description: "What publish_report published, in order",
      schema: empty,
      execute: async () => JSON.stringify(published),
    }),
    tool({
      name: "cancellations",
      description: "How many count_down runs saw their cancellation",
      schema: empty,
      execute: async () => String(cancelled),
    }),
    tool({
      name: "echo",
      description: "Echoes its text (never a task)",
      schema: z.object({ text: z.string() }),
      execute: async ({ text }) => text,
    }),
  ],
});

if (process.argv[2] === "http") {
  const running = await serveHTTP(server, { port: 0, hostname: "127.0.0.1", rateLimit: false });
  process.stdout.write(`${running.url}\n`);
} else {
  serveStdio(server, { onError: (error) => process.stderr.write(`${error.message}\n`) });
}
