import type { Message } from "./messages.js";

/** A vendor's rule for tool names. */
export interface ToolNameRule {
  /** Characters allowed; every other character becomes `_`. Must not be global. */
  allowed: RegExp;
  maxLength: number;
}

/** The rule Anthropic and OpenAI share: `^[a-zA-Z0-9_-]{1,64}$`. */
export const COMMON_TOOL_NAME_RULE: ToolNameRule = { allowed: /[a-zA-Z0-9_-]/, maxLength: 64 };

/** A two-way mapping between real tool names and the names a vendor accepts. */
export interface ToolNameMapping {
  /** The name to send for a real tool name. */
  toVendor(name: string): string;
  /** The real tool name for a name the vendor sent back (unchanged when unknown). */
  fromVendor(vendorName: string): string;
}

/**
 * Makes real tool names fit a vendor's rule, uniquely and reversibly. Names that already
 * fit are kept; others have invalid characters replaced, are shortened with a short hash to
 * stay distinct, and collisions get a numbered suffix. Pure: the same names give the same
 * mapping on every request, so names in earlier turns map back the same way.
 */
export function createToolNameMapping(names: Iterable<string>, rule: ToolNameRule): ToolNameMapping {
  const toVendor = new Map<string, string>();
  const fromVendor = new Map<string, string>();
  const unique = [...new Set(names)];
  // Names that already fit claim themselves first, so they never get renamed by a later collision.
  const ordered = [...unique.filter((n) => fits(n, rule)), ...unique.filter((n) => !fits(n, rule))];
  for (const name of ordered) {
    let candidate = fits(name, rule) ? name : adapt(name, rule);
    for (let n = 2; fromVendor.has(candidate); n++)
      candidate = withSuffix(candidate, `_${n}`, rule.maxLength);
    toVendor.set(name, candidate);
    fromVendor.set(candidate, name);
  }
  return {
    toVendor: (name) => toVendor.get(name) ?? adapt(name, rule),
    fromVendor: (vendorName) => fromVendor.get(vendorName) ?? vendorName,
  };
}

/**
 * Every tool name a conversation has used: the calls the model made and the results sent back.
 * A mapping made from these names as well as today's tools maps earlier turns the same way,
 * even for a tool that is no longer offered.
 */
export function toolNamesInMessages(messages: readonly Message[]): string[] {
  const names: string[] = [];
  for (const message of messages) {
    if (message.role === "assistant") {
      for (const part of message.content) if (part.type === "tool-call") names.push(part.name);
    } else if (message.role === "tool") {
      for (const part of message.content) names.push(part.toolName);
    }
  }
  return names;
}

function fits(name: string, rule: ToolNameRule): boolean {
  return name.length > 0 && name.length <= rule.maxLength && [...name].every((c) => rule.allowed.test(c));
}

function adapt(name: string, rule: ToolNameRule): string {
  const replaced = [...name].map((c) => (rule.allowed.test(c) ? c : "_")).join("") || "tool";
  if (replaced === name && replaced.length <= rule.maxLength) return replaced;
  // Replacing or cutting characters can make two names equal: a hash of the original keeps them apart.
  return withSuffix(replaced, `_${hash(name)}`, rule.maxLength);
}

function withSuffix(name: string, suffix: string, maxLength: number): string {
  return name.slice(0, maxLength - suffix.length) + suffix;
}

/** FNV-1a, 32 bits, base 36: short, stable, no dependencies. */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36);
}
