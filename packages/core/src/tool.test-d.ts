// Compile-time only (run by `pnpm type-check`): every per-tool option an Agent reads from a tool
// is accepted by tool() under `strict`, with the types the Agent expects (issue 26).
import { z } from "zod";
import { tool } from "./tool.js";

const schema = z.object({ query: z.string() });

export const deferred = tool({
  name: "search_archive",
  description: "Searches the archive",
  schema,
  defer: true,
  execute: async ({ query }) => query,
});

export const pinned = tool({
  name: "now",
  description: "The current time",
  schema: z.object({}),
  alwaysLoad: true,
  outputSchema: { type: "object", properties: { iso: { type: "string" } } },
  annotations: { readOnlyHint: true, openWorldHint: false },
  execute: async () => new Date().toISOString(),
});

// The marks stay readable on the tool made, as the Agent reads them.
export const marks: [boolean | undefined, boolean | undefined] = [deferred.defer, pinned.alwaysLoad];

export const notABoolean = tool({
  name: "x",
  description: "x",
  schema,
  // @ts-expect-error: `defer` is a boolean, not a string.
  defer: "yes",
  execute: async () => "x",
});
