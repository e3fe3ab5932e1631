/**
 * What a program's result says, read back from the text core gives the model (`programResult` in
 * core's code mode): the first section is what the program returned (`Returned: <JSON>`, or that
 * it returned nothing) or why it failed (threw, a limit, stopped, a replay that diverged), then
 * `Console:` with what it logged, then `Calls (n):` with a count per tool and the calls that did not succeed. The text is the
 * program's (the model's) own output: every part of it is shown as text, never as markup.
 */
export interface ProgramOutcome {
  /** False when core marked the result an error (the program threw, broke a limit, diverged). */
  ok: boolean;
  /** The first section: the `Returned: …` line, or why the program failed. */
  headline: string;
  /** The returned value, when the headline is `Returned: <JSON>` and the JSON parses. */
  returned?: { value: unknown };
  /** What the program logged, when it logged anything. */
  console?: string;
}

const CONSOLE_MARK = "\n\nConsole:\n";
const RETURNED = "Returned: ";
/**
 * The calls section core ends the text with: `Calls (n): <a count per tool>`, then a line per call
 * that did not succeed (or a count of the rest); results stored before that have a line per call.
 */
const CALL_LINE = String.raw`\n(?:\d+\. |… and )[^\n]*`;
const CALLS_SECTION = new RegExp(
  String.raw`\n\nCalls \(\d+\):(?: [^\n]+(?:${CALL_LINE})*|(?:${CALL_LINE})+)\n?$`,
);

/**
 * Reads a program call's result (a `ToolResult`): from its `structuredContent` (core's outcome as
 * data), else from its text; anything else is an outcome whose headline says so.
 */
export function readProgramOutcome(result: unknown): ProgramOutcome {
  if (typeof result !== "object" || result === null) {
    return { ok: false, headline: `The program's result is not a tool result: ${String(result)}` };
  }
  const structured = fromStructured((result as { structuredContent?: unknown }).structuredContent);
  if (structured) return structured;
  const { content, isError } = result as { content?: unknown; isError?: unknown };
  const parts = Array.isArray(content) ? content : [];
  const text = parts
    .flatMap((part) =>
      typeof part === "object" && part !== null && (part as { type?: unknown }).type === "text"
        ? [String((part as { text?: unknown }).text ?? "")]
        : [],
    )
    .join("\n");
  const ok = isError !== true;
  const calls = CALLS_SECTION.exec(text);
  const body = calls ? text.slice(0, calls.index) : text;
  const consoleAt = body.indexOf(CONSOLE_MARK);
  const headline = consoleAt === -1 ? body : body.slice(0, consoleAt);
  const outcome: ProgramOutcome = { ok, headline };
  // The sandbox ends every logged line with a newline; the last one is no line of its own.
  if (consoleAt !== -1) outcome.console = body.slice(consoleAt + CONSOLE_MARK.length).replace(/\n$/, "");
  if (ok && headline.startsWith(RETURNED)) {
    try {
      outcome.returned = { value: JSON.parse(headline.slice(RETURNED.length)) };
    } catch {
      // Cut short (a result too large to show whole) or not JSON: the headline is shown as text.
    }
  }
  return outcome;
}

/** Core's outcome as data (`structuredContent` of a program's result), checked field by field: it is stored, untrusted input. */
function fromStructured(data: unknown): ProgramOutcome | undefined {
  if (typeof data !== "object" || data === null) return undefined;
  const { outcome, console: logged, returned, error, limit, diverged } = data as Record<string, unknown>;
  if (typeof outcome !== "string" || typeof logged !== "string") return undefined;
  const text = (value: unknown) => (typeof value === "string" ? value : String(value));
  const field = (value: unknown, name: string) =>
    typeof value === "object" && value !== null ? text((value as Record<string, unknown>)[name]) : "";
  let parsed: ProgramOutcome;
  switch (outcome) {
    case "returned":
      parsed =
        returned === undefined
          ? { ok: true, headline: "The program returned nothing (undefined)." }
          : { ok: true, headline: `${RETURNED}${JSON.stringify(returned)}`, returned: { value: returned } };
      break;
    case "threw":
      parsed = {
        ok: false,
        headline: `The program threw ${field(error, "name")}: ${field(error, "message")}`,
      };
      break;
    case "limit":
      parsed = {
        ok: false,
        headline: `The program was stopped by its ${field(limit, "code")} limit: ${field(limit, "message")}`,
      };
      break;
    case "diverged":
      parsed = { ok: false, headline: `The program was stopped: ${text(diverged)}.` };
      break;
    default:
      parsed = { ok: false, headline: "The program was stopped before it finished." };
  }
  const kept = logged.replace(/\n$/, "");
  return kept === "" ? parsed : { ...parsed, console: kept };
}
