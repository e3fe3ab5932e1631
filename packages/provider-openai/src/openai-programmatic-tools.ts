import { isRecord } from "@junction/provider-utils";
import type { ToolDefinition } from "@junction/types";
import type OpenAI from "openai";

// OpenAI's Programmatic Tool Calling in the Responses API
// (https://developers.openai.com/api/docs/guides/tools-programmatic-tool-calling.md): the model
// writes JavaScript that OpenAI runs in a fresh, isolated V8 runtime; the program calls the
// request's tools, and "the application continues to run any client-owned tool calls". The item
// and field shapes below are the `openai` SDK's (`responses.d.ts`, 7.57), read together with
// openai/openai-agents-js, which implements the feature (`programmaticToolCallingTool`,
// `packages/agents-openai/src/openaiResponsesModel.ts`).

/**
 * The tool that turns Programmatic Tool Calling on for a request (`Tool.ProgrammaticToolCalling`:
 * `{ type: "programmatic_tool_calling" }`, no other field). Sent after the function tools when a
 * tool definition has `callers`.
 */
export const OPENAI_PROGRAMMATIC_TOOL_CALLING: OpenAI.Responses.Tool.ProgrammaticToolCalling = {
  type: "programmatic_tool_calling",
};

/**
 * A function tool's `allowed_callers` for a definition's `callers` (absent: the field is left
 * out, and the model alone calls the tool, the API's default). The API's values are `direct`
 * (the model) and `programmatic` (a program): `code` → `["programmatic"]`, `both` →
 * `["direct", "programmatic"]` (`FunctionTool.allowed_callers`, and openai-agents-js's
 * `ToolAllowedCaller`: "whether an eligible Responses API tool can be called directly by the
 * model or from a Programmatic Tool Calling program").
 */
export function allowedCallersFor(
  callers: ToolDefinition["callers"],
): OpenAI.Responses.FunctionTool["allowed_callers"] | undefined {
  switch (callers) {
    case undefined:
      return undefined;
    case "code":
      return ["programmatic"];
    case "both":
      return ["direct", "programmatic"];
    default: {
      const unknown: never = callers;
      return unknown;
    }
  }
}

/**
 * The runtime a tool-call part names for a call a program made (`ToolCallProgram.runtime`): the
 * tool that turns Programmatic Tool Calling on, whose isolated V8 runtime ran the program.
 */
export const PROGRAMMATIC_RUNTIME = OPENAI_PROGRAMMATIC_TOOL_CALLING.type;

/**
 * Who made a function call, as the API names a program: `{ type: "program", caller_id }`, where
 * `caller_id` is the `call_id` of the `program` item that made it (`ResponseFunctionToolCall.caller`:
 * "The call ID of the program item that produced this tool call"). Sent back unchanged on the
 * call and on its `function_call_output` (`FunctionCallOutput.caller`).
 */
export interface OpenAIProgramCaller {
  type: "program";
  caller_id: string;
}

/** A `program` item's fields the API requires back (`ResponseInputItem.Program`); kept whole, with any others. */
export type OpenAIProgramItem = Record<string, unknown> & {
  type: "program";
  id: string;
  call_id: string;
  code: string;
  /** "Opaque program replay fingerprint that must be round-tripped." */
  fingerprint: string;
};

/** A `program_output` item (`ResponseInputItem.ProgramOutput`: the program's result and terminal status), kept whole. */
export type OpenAIProgramOutputItem = Record<string, unknown> & {
  type: "program_output";
  id: string;
  call_id: string;
};

/** A `program` item's missing or malformed required field, or undefined when it has them all. Pure. */
export function programItemFault(item: Record<string, unknown>): string | undefined {
  for (const field of ["id", "call_id", "code", "fingerprint"])
    if (typeof item[field] !== "string" || (field !== "code" && item[field] === ""))
      return `a program item without a ${field === "code" ? "string" : "non-empty string"} "${field}"`;
  return undefined;
}

/** A `program_output` item's missing required field, or undefined when it has them. Pure. */
export function programOutputItemFault(item: Record<string, unknown>): string | undefined {
  for (const field of ["id", "call_id"])
    if (typeof item[field] !== "string" || item[field] === "")
      return `a program_output item without a non-empty string "${field}"`;
  return undefined;
}

/**
 * Reads a wire `caller` (untrusted): absent, `null` or `{ type: "direct" }` is the model itself
 * (undefined); `{ type: "program", caller_id }` a program. Anything else is a fault, returned as
 * text for the error. Pure.
 */
export function readCaller(caller: unknown): { caller?: OpenAIProgramCaller; fault?: string } {
  if (caller === undefined || caller === null) return {};
  if (isRecord(caller) && caller.type === "direct") return {};
  if (isRecord(caller) && caller.type === "program") {
    if (typeof caller.caller_id === "string" && caller.caller_id !== "")
      return { caller: { type: "program", caller_id: caller.caller_id } };
    return { fault: `a program caller without a non-empty string "caller_id"` };
  }
  return { fault: `a caller of unknown form ${JSON.stringify(caller)}` };
}
