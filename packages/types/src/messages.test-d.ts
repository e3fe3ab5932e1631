// Compile-time only (run by `pnpm type-check`): a tool-call part may name the vendor-run program
// that made it, whose id and runtime are required and whose source is optional.
import type { ToolCallPart, ToolCallProgram } from "./messages.js";

export const madeByProgram: ToolCallPart = {
  type: "tool-call",
  id: "toolu_1",
  name: "sales_query",
  input: {},
  program: { id: "srvtoolu_1", runtime: "code_execution_20250825", source: "await sales_query({})" },
};

export const withoutSource: ToolCallProgram = { id: "call_prog_1", runtime: "programmatic_tool_calling" };

// @ts-expect-error: a program names the runtime that ran it.
export const withoutRuntime: ToolCallProgram = { id: "srvtoolu_1" };
