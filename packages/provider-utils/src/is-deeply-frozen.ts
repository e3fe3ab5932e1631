// Deeper values are not looked into: such a value counts as not frozen (a cache keyed by it skips it).
const MAX_DEPTH = 64;

/**
 * Whether `value` is plain data that can never change: a primitive, or a frozen array or plain
 * object whose every value is deeply frozen too (to 64 levels; anything deeper, and any class
 * instance, counts as not frozen). A provider may cache work per message only when this holds:
 * an Agent's messages are deeply frozen copies. Accessor properties are not looked for (a getter
 * on a frozen object is taken as its value): JSON messages have none, and an Agent copies values.
 */
export function isDeeplyFrozen(value: unknown): boolean {
  return frozenTo(value, 0);
}

function frozenTo(value: unknown, depth: number): boolean {
  if (typeof value !== "object" || value === null) return typeof value !== "function";
  if (depth >= MAX_DEPTH || !Object.isFrozen(value)) return false;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) if (!frozenTo(value[index], depth + 1)) return false;
    return true;
  }
  // A class instance (a Date, a Map) keeps state that freezing does not cover.
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  for (const key of Object.keys(value))
    if (!frozenTo((value as Record<string, unknown>)[key], depth + 1)) return false;
  return true;
}
