import { errorMessage } from "@junction/types";
/**
 * How deep a tool result's JSON (`structuredContent`, extra fields of content parts) may nest.
 * Real results stay far below it; thousands of levels would overflow the stack of
 * `structuredClone` and `JSON.stringify` when the conversation is copied, sent or saved.
 */
export const MAX_TOOL_OUTPUT_DEPTH = 100;

/** What a value from a tool is checked against. */
export interface JSONLimits {
  /** Nesting levels of objects and arrays. */
  maxDepth: number;
  /** Characters of the value's JSON text, roughly (strings, numbers, keys and punctuation). */
  maxChars: number;
}

/**
 * Why `value` cannot be kept as JSON within `limits`, or `undefined` if it can. Iterative and
 * stopping at the first excess, so a hostile value (deep, huge or circular) costs at most about
 * `maxChars` steps and no stack.
 */
export function jsonLimitProblem(value: unknown, limits: JSONLimits): string | undefined {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  let chars = 0;
  while (pending.length > 0) {
    const { value: current, depth } = pending.pop()!;
    switch (typeof current) {
      case "string":
        chars += current.length + 2;
        break;
      case "number":
        // Signed and digested bytes refuse them (canonicalJSON); JSON would write them as another value.
        if (!Number.isFinite(current)) return `it holds ${current}, which JSON cannot carry`;
        if (Object.is(current, -0)) return "it holds -0, which JSON cannot carry apart from 0";
        chars += 5;
        break;
      case "boolean":
        chars += 5;
        break;
      case "undefined":
        break;
      case "object": {
        if (current === null) {
          chars += 4;
          break;
        }
        if (depth >= limits.maxDepth) {
          return `it is nested deeper than ${limits.maxDepth} levels (or refers to itself)`;
        }
        chars += 2;
        if (Array.isArray(current)) {
          for (const item of current) pending.push({ value: item, depth: depth + 1 });
          chars += current.length;
        } else {
          for (const [key, item] of Object.entries(current)) {
            chars += key.length + 4;
            pending.push({ value: item, depth: depth + 1 });
          }
        }
        break;
      }
      default:
        return `it holds a ${typeof current}, which JSON cannot carry`;
    }
    if (chars > limits.maxChars) return `its JSON is over ${limits.maxChars} characters`;
  }
  return undefined;
}

/** `value` as plain JSON data (what a saved conversation would restore), or the reason it is not. */
export function toPlainJSON(value: unknown): { ok: true; value: unknown } | { ok: false; reason: string } {
  try {
    const text = JSON.stringify(value);
    return { ok: true, value: text === undefined ? undefined : JSON.parse(text) };
  } catch (error) {
    return { ok: false, reason: `it cannot be written as JSON (${errorMessage(error)})` };
  }
}

/**
 * `value` with every `-0` made `0`, the same object when it holds none. For a model's tool-call
 * arguments: JSON text `-0` parses to `-0`, which signed bytes refuse, and to the arguments'
 * reader it is the number zero. Goes no deeper than `maxDepth` (deeper values are refused by
 * {@link jsonLimitProblem} anyway).
 */
export function withoutNegativeZero(value: unknown, maxDepth = MAX_TOOL_OUTPUT_DEPTH): unknown {
  if (Object.is(value, -0)) return 0;
  if (typeof value !== "object" || value === null || maxDepth <= 0) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, index) => {
      const folded = withoutNegativeZero(item, maxDepth - 1);
      if (!Object.is(folded, item)) {
        copy ??= [...value];
        copy[index] = folded;
      }
    });
    return copy ?? value;
  }
  let copy: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    const folded = withoutNegativeZero(item, maxDepth - 1);
    if (!Object.is(folded, item)) {
      copy ??= { ...(value as Record<string, unknown>) };
      copy[key] = folded;
    }
  }
  return copy ?? value;
}
