import type { Message } from "@junction/types";

// Past this depth the rest of a value is copied by `structuredClone`, which keeps what a
// recursive copy cannot (a value that refers to itself) and needs no stack of ours. Conversations
// are plain JSON far shallower than this; tool results are kept within MAX_TOOL_OUTPUT_DEPTH.
const MAX_COPY_DEPTH = 200;

/**
 * A conversation as Junction's own: a new array of messages copied, deeply, and frozen. Strings
 * are immutable, so they are shared rather than copied (`structuredClone` copies every
 * character): a copy costs a few objects per message, not the size of its tool results. What is
 * not a plain object or array (a `Date`, a class instance) is copied with `structuredClone`, as
 * before. Not validated: pass the result to `validateMessages`.
 */
export function ownMessages<T extends readonly Message[] | undefined>(messages: T): T {
  // Anything but an array is left for `validateMessages` to name.
  if (!Array.isArray(messages)) return messages;
  return messages.map((message) => copyValue(message, 0, true)) as unknown as T;
}

/** A copy of `messages` the caller may change: new, unfrozen objects (strings shared). */
export function mutableMessages(messages: readonly Message[]): Message[] {
  return messages.map((message) => copyValue(message, 0, false));
}

/** A deep copy of plain JSON-like data (new objects and arrays, the same primitives), frozen if asked. */
function copyValue<T>(value: T, depth: number, freeze: boolean): T {
  // A function or symbol cannot be copied: structuredClone says so (a DataCloneError), as it did.
  if (typeof value === "function" || typeof value === "symbol") return structuredClone(value);
  if (typeof value !== "object" || value === null) return value;
  if (depth >= MAX_COPY_DEPTH || !isPlain(value)) {
    const cloned = structuredClone(value);
    if (freeze) freezeAll(cloned);
    return cloned;
  }
  let copy: unknown[] | Record<string, unknown>;
  if (Array.isArray(value)) {
    copy = new Array(value.length);
    for (let index = 0; index < value.length; index++)
      copy[index] = copyValue(value[index], depth + 1, freeze);
  } else {
    copy = {};
    for (const key of Object.keys(value)) {
      const item = copyValue((value as Record<string, unknown>)[key], depth + 1, freeze);
      // `__proto__` from JSON is an own key; assigning it would set the copy's prototype instead.
      if (key === "__proto__")
        Object.defineProperty(copy, key, {
          value: item,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      else copy[key] = item;
    }
  }
  return (freeze ? Object.freeze(copy) : copy) as T;
}

function isPlain(value: object): boolean {
  if (Array.isArray(value)) return true;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** Freezes a fresh clone, without recursion (it may refer to itself). Typed arrays cannot be frozen. */
function freezeAll(root: unknown): void {
  const pending = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value !== "object" || value === null || Object.isFrozen(value) || ArrayBuffer.isView(value))
      continue;
    Object.freeze(value);
    for (const key of Object.keys(value)) pending.push((value as Record<string, unknown>)[key]);
  }
}
