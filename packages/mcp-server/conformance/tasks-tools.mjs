// The tools the suite's tasks scenarios (the tasks extension, SEP-2663: `tasks-*`) call, as
// served `tool()`s declared with `withTaskSupport`, from the package's public API: a sync tool,
// tasks that sleep, fail, throw a protocol error, and ask through `servedContext()` (one
// question, two at once, and questions asked as input_required rounds before the task starts).

import { tool } from "@junction/core";
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { z } from "zod";
import { servedContext, withTaskSupport } from "../dist/index.js";

/** Resolves after `ms`, or rejects when `signal` aborts (a cancelled task settles as cancelled). */
function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

const confirmation = (message, name) => ({
  message,
  requestedSchema: {
    type: "object",
    properties: {
      ...(name ? { name: { type: "string" } } : {}),
      confirm: { type: "boolean" },
    },
    required: ["confirm"],
  },
});

export const tasksTools = [
  tool({
    name: "greet",
    description: "Greets by name (never a task)",
    schema: z.object({ name: z.string() }),
    execute: async ({ name }) => `Hello, ${name}!`,
  }),
  withTaskSupport(
    tool({
      name: "slow_compute",
      description: "Sleeps `seconds` seconds, then answers (a task for a client with the tasks extension)",
      schema: z.object({ seconds: z.number().min(0), label: z.string().optional() }),
      execute: async ({ seconds, label }, context) => {
        await sleep(seconds * 1000, context?.signal);
        return `Computed ${label ?? "result"} after ${seconds}s`;
      },
    }),
    "optional",
  ),
  withTaskSupport(
    tool({
      name: "failing_job",
      description: "Fails after a second, as a tool error (runs only as a task)",
      schema: z.object({}),
      execute: async (_input, context) => {
        await sleep(1000, context?.signal);
        throw new Error("the job failed, as it always does");
      },
    }),
    "required",
  ),
  withTaskSupport(
    tool({
      name: "protocol_error_job",
      description: "Fails with a protocol error (its task ends failed)",
      schema: z.object({}),
      execute: async () => {
        throw new ProtocolError(ProtocolErrorCode.InternalError, "protocol_error_job broke, on purpose");
      },
    }),
    "optional",
  ),
  withTaskSupport(
    tool({
      name: "confirm_delete",
      description: "Asks to confirm, then deletes (pretends to)",
      schema: z.object({ filename: z.string() }),
      execute: async ({ filename }, context) => {
        const served = servedContext(context);
        const answer = await served.elicit(confirmation(`Delete ${filename}?`));
        const confirmed = answer.action === "accept" && answer.content?.confirm === true;
        return confirmed ? `Deleted ${filename}` : `Kept ${filename}`;
      },
    }),
    "optional",
  ),
  withTaskSupport(
    tool({
      name: "multi_input",
      description: "Asks two questions at once",
      schema: z.object({}),
      execute: async (_input, context) => {
        const served = servedContext(context);
        const answers = await Promise.all([
          served.elicit(confirmation("First input?", true)),
          served.elicit(confirmation("Second input?", true)),
        ]);
        return `Got ${answers.map((answer) => String(answer.content?.name)).join(" and ")}`;
      },
    }),
    "optional",
  ),
  withTaskSupport(
    tool({
      name: "test_tool_with_task",
      description: "Asks for a name (input_required), then runs as a task",
      schema: z.object({}),
      execute: async (_input, context) => {
        const served = servedContext(context);
        const answer = await served.elicit(
          {
            message: "What is your name?",
            requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
          },
          { key: "user_name" },
        );
        await served.startTask();
        return `Hello, ${String(answer.content?.name)}, from a task!`;
      },
    }),
    "required",
    { askBeforeTask: true },
  ),
];
