import { errorMessage, type JSONValue, type SandboxCallError } from "@junction/types";

// The host's half of "only JSON crosses the bridge": the guest hands over JSON text it wrote itself
// (guest-prelude.ts), and the host reads it here, never a guest object.

/** Keys that are never passed to the host, at any depth: they could change a prototype there. */
export const FORBIDDEN_KEYS: readonly string[] = ["__proto__", "constructor", "prototype"];

const encoder = new TextEncoder();

/** The length of `text` in UTF-8 bytes, without encoding it. */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        index++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * JSON text from the guest, read as a plain value. The guest already left the forbidden keys out;
 * they are dropped here again, so a change to the prelude cannot let one through.
 */
export function parseGuestJSON(text: string): JSONValue {
  // A key is written as itself unless it has an escape: text with neither a backslash nor a
  // forbidden word holds no forbidden key, and is read without visiting every value.
  if (!text.includes("\\") && !FORBIDDEN_KEYS.some((key) => text.includes(key)))
    return JSON.parse(text) as JSONValue;
  return JSON.parse(text, (key, value) => (FORBIDDEN_KEYS.includes(key) ? undefined : value)) as JSONValue;
}

/**
 * A host value as JSON text for the guest, or why it cannot be one (a host function that resolved
 * with something JSON cannot hold: a cycle, a BigInt). `undefined` stays `undefined`.
 */
export function hostValueToJSON(value: unknown): { text: string | undefined } | { error: string } {
  try {
    return { text: JSON.stringify(value) as string | undefined };
  } catch (error) {
    return { error: errorMessage(error) };
  }
}

/** What the guest is told when a tool resolved with something JSON cannot hold. */
export function notJSONMessage(reason: string): string {
  return `The tool's result is not JSON: ${reason}`;
}

/** A host rejection as the guest's `ToolError`: its `code` and `message` when it has them. */
export function toCallError(error: unknown): SandboxCallError {
  const candidate = (typeof error === "object" && error !== null ? error : {}) as Partial<SandboxCallError>;
  return {
    code: typeof candidate.code === "string" ? candidate.code : "tool-error",
    message: typeof candidate.message === "string" ? candidate.message : errorMessage(error),
  };
}

/** A host value already written as JSON text (on another thread): delivered as that text. */
export class JSONText {
  constructor(readonly text: string) {}
}

/** `text` cut to at most `maxBytes` UTF-8 bytes, never inside a character. */
export function truncateUTF8(text: string, maxBytes: number): string {
  if (utf8ByteLength(text) <= maxBytes) return text;
  const bytes = encoder.encode(text);
  let end = maxBytes;
  // Step back over continuation bytes (10xxxxxx) to the start of the cut character.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return new TextDecoder().decode(bytes.subarray(0, end));
}
