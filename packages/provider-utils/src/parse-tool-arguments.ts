/**
 * True for a plain JSON object: not `null`, not an array.
 *
 * @example
 * ```ts
 * isRecord({ a: 1 }); // true
 * isRecord([1]); // false
 * ```
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Parses the JSON text of a tool call's arguments, as a model streamed it. Empty or
 * whitespace-only text is a call without arguments (`{}`). Anything but a JSON object is an
 * error, described in words the caller can put into a warning; the caller decides what to pass
 * on (the raw text, usually, so the tool's own validation tells the model what was wrong).
 *
 * @example
 * ```ts
 * parseToolArguments('{"city":"Paris"}'); // { ok: true, value: { city: "Paris" } }
 * parseToolArguments("[1]"); // { ok: false, error: "expected a JSON object, got an array" }
 * ```
 */
export function parseToolArguments(
  text: string,
): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  if (text.trim() === "") return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `not valid JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  if (isRecord(value)) return { ok: true, value };
  const kind = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
  return { ok: false, error: `expected a JSON object, got ${kind}` };
}
