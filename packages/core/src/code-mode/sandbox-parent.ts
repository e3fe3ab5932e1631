import type { ToolCallPart } from "@junction/types";
import type { PendingCallParent } from "../pending-tool-call.js";
import { nestedCallId } from "../run-journal.js";

// Sandbox-mode code mode: a program tool call of the model's turn (`run_program`) runs its
// program in Junction's sandbox, and each call the program makes waits as `<call id>.<sequence>`
// with a `parent` naming the program. A stored state's `parent` is untrusted: it is what an
// approval card shows beside the call, so it must be the program the turn holds. Pure.

/** A program tool call's source: its `code`, when that is a non-empty string. */
export function programSource(input: unknown): string | undefined {
  if (typeof input !== "object" || input === null) return undefined;
  const code = (input as { code?: unknown }).code;
  return typeof code === "string" && code.trim() !== "" ? code : undefined;
}

/**
 * Why a stored pending call's sandbox `parent` is not the program call of the model turn it
 * names (the field, and what is wrong, to be followed by the step: "… of step 2"), or `undefined` when it is: the call
 * must be that program's, under `<parent.id>.<parent.sequence>`, and the parent's tool and
 * source must be the turn's call's name and `code`.
 */
export function sandboxParentProblem(parts: {
  /** The tool calls of the step's journaled model turn. */
  calls: readonly ToolCallPart[];
  pending: { id: string; parent: PendingCallParent };
}): { field: PropertyKey[]; message: string } | undefined {
  const { id, parent } = parts.pending;
  const part = parts.calls.find((call) => call.id === parent.id);
  if (!part || id !== nestedCallId(parent.id, parent.sequence))
    return { field: ["parent"], message: `(${id}) is not a call of a program` };
  if (parent.name !== part.name)
    return {
      field: ["parent", "name"],
      message: `must be ${JSON.stringify(part.name)}, the tool of program call ${part.id} in the model turn`,
    };
  if (parent.program !== programSource(part.input))
    return {
      field: ["parent", "program"],
      message: `is not the source of program call ${part.id} in the model turn`,
    };
  return undefined;
}
