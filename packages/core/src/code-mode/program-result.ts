import type { JSONValue, SandboxOutcome, ToolResult } from "@junction/types";

/** Calls listed one per line in a program's result; past this, a count of the rest. */
const MAX_LISTED_CALLS = 50;

/**
 * What the model gets of a program: its return value (as JSON), what it logged, and one line per
 * call it made; the same as `structuredContent` (`outcome`, `returned`, `error`, `limit`,
 * `diverged`, `console`, `calls`) for code and pages. Never the calls' results: those stay out of the conversation, which is the point.
 * A program that threw, broke a limit or diverged on replay is an error result naming why.
 */
export function programResult(parts: {
  outcome: SandboxOutcome;
  calls: readonly { sequence: number; name: string; outcome: string }[];
  diverged?: string | undefined;
}): ToolResult {
  const { outcome, calls, diverged } = parts;
  const sections: string[] = [];
  let isError = true;
  if (diverged !== undefined) {
    sections.push(
      `The program was stopped: ${diverged}. Nothing was run in its place; write the program again if you still need it.`,
    );
  } else if (outcome.kind === "returned") {
    isError = false;
    sections.push(
      outcome.value === undefined
        ? "The program returned nothing (undefined)."
        : `Returned: ${json(outcome.value)}`,
    );
  } else if (outcome.kind === "threw") {
    sections.push(`The program threw ${outcome.error.name}: ${outcome.error.message}`);
  } else if (outcome.kind === "limit") {
    sections.push(`The program was stopped by its ${outcome.code} limit: ${outcome.message}`);
  } else {
    sections.push("The program was stopped before it finished.");
  }
  if (outcome.console !== "") sections.push(`Console:\n${outcome.console}`);
  if (calls.length > 0) sections.push(`Calls (${calls.length}):\n${callLines(calls)}`);
  return {
    content: [{ type: "text", text: sections.join("\n\n") }],
    isError,
    // The same, as data, for a page that shows a program (the model reads the text).
    structuredContent: {
      outcome: diverged !== undefined ? "diverged" : outcome.kind,
      ...(outcome.kind === "returned" && diverged === undefined && outcome.value !== undefined
        ? { returned: outcome.value }
        : {}),
      ...(outcome.kind === "threw" ? { error: outcome.error } : {}),
      ...(outcome.kind === "limit" ? { limit: { code: outcome.code, message: outcome.message } } : {}),
      ...(diverged !== undefined ? { diverged } : {}),
      console: outcome.console,
      calls: calls.map((call) => ({ ...call })),
    },
  };
}

function callLines(calls: readonly { sequence: number; name: string; outcome: string }[]): string {
  const lines = calls
    .slice(0, MAX_LISTED_CALLS)
    .map((call) => `${call.sequence}. ${call.name}: ${call.outcome}`);
  const rest = calls.slice(MAX_LISTED_CALLS);
  if (rest.length > 0) {
    const failed = rest.filter((call) => call.outcome !== "success").length;
    lines.push(`… and ${rest.length} more (${rest.length - failed} succeeded, ${failed} did not)`);
  }
  return lines.join("\n");
}

function json(value: JSONValue): string {
  return JSON.stringify(value) ?? "null";
}
