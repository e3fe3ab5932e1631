import type { JSONValue, SandboxOutcome, ToolResult } from "@junction/types";

/** Calls that did not succeed listed one per line in a program's result; past this, a count of the rest. */
const MAX_LISTED_CALLS = 50;

/**
 * What the model gets of a program: its return value (as JSON), what it logged, and its calls: a
 * count per tool, and one line for each call that did not succeed (its number, tool and outcome),
 * which is what the model acts on; the same as `structuredContent` (`outcome`, `returned`, `error`, `limit`,
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
  if (calls.length > 0) sections.push(`Calls (${calls.length}): ${callLines(calls)}`);
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

/** `1 fs_list_directory, 20 fs_read_text_file, all succeeded`, or the count then a line per call that did not. */
function callLines(calls: readonly { sequence: number; name: string; outcome: string }[]): string {
  const perTool = new Map<string, number>();
  for (const call of calls) perTool.set(call.name, (perTool.get(call.name) ?? 0) + 1);
  const counts = [...perTool].map(([name, count]) => `${count} ${name}`).join(", ");
  const failed = calls.filter((call) => call.outcome !== "success");
  if (failed.length === 0) return `${counts}, all succeeded`;
  const lines = failed
    .slice(0, MAX_LISTED_CALLS)
    .map((call) => `${call.sequence}. ${call.name}: ${call.outcome}`);
  const rest = failed.length - MAX_LISTED_CALLS;
  if (rest > 0) lines.push(`… and ${rest} more that did not succeed`);
  return `${counts}; ${failed.length} did not succeed:\n${lines.join("\n")}`;
}

function json(value: JSONValue): string {
  return JSON.stringify(value) ?? "null";
}
