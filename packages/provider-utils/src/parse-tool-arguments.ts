import type { Warning } from "@junction/types";
import { errorMessage } from "@junction/types";

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
    return { ok: false, error: `not valid JSON (${errorMessage(error)})` };
  }
  if (isRecord(value)) return { ok: true, value };
  const kind = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
  return { ok: false, error: `expected a JSON object, got ${kind}` };
}

/**
 * A streamed tool call's input, from its argument text: the parsed object, or, when the text is
 * not a JSON object, the raw text itself with a `tool-call-arguments-invalid` warning
 * ("Anthropic sent arguments for tool call toolu_1 (search) that are not a JSON object: not
 * valid JSON (…)"). The raw text goes on so that the tool's own input check tells the model what
 * was wrong, and it can try again.
 *
 * @param options.provider The provider's name as people write it (`"Anthropic"`).
 */
export function toolCallInput(options: { text: string; id: string; name: string; provider: string }): {
  input: unknown;
  warning?: Warning;
} {
  const parsed = parseToolArguments(options.text);
  if (parsed.ok) return { input: parsed.value };
  return {
    input: options.text,
    warning: {
      code: "tool-call-arguments-invalid",
      message: `${options.provider} sent arguments for tool call ${options.id} (${options.name}) that are not a JSON object: ${parsed.error}`,
    },
  };
}

/**
 * A tool call's input for a vendor that takes only a JSON object there (Anthropic's `tool_use`,
 * Bedrock's `toolUse`), when a conversation sends the call back: the input when it is an object,
 * else `{}` with a `tool-call-input-not-object` warning ("Tool call c1 (search) has input that is
 * not a JSON object; it was sent as an empty object.").
 */
export function objectToolInput(call: { id: string; name: string; input: unknown }): {
  input: Record<string, unknown>;
  warning?: Warning;
} {
  if (isRecord(call.input)) return { input: call.input };
  return {
    input: {},
    warning: {
      code: "tool-call-input-not-object",
      message: `Tool call ${call.id} (${call.name}) has input that is not a JSON object; it was sent as an empty object.`,
    },
  };
}
