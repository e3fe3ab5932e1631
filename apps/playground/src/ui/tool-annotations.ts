/** One of a tool's annotations as the page shows it: a word, a tone, and what it means. */
export interface AnnotationBadge {
  text: string;
  /** `warn` for what may change or destroy something. */
  tone: "plain" | "warn";
  /** What the hint means, for the badge's tooltip. */
  meaning: string;
}

/** How long a value of an annotation this page does not know may be, shown. */
const maximumShownValue = 60;

/**
 * A tool's annotations (MCP `ToolAnnotations`) as words a person reads: each hint the server
 * stated, in the spec's terms (a hint the server left out is not guessed), then any other
 * annotation as `name: value`. The annotations come from the server: only text comes out.
 */
export function annotationBadges(annotations: unknown): AnnotationBadge[] {
  if (typeof annotations !== "object" || annotations === null || Array.isArray(annotations)) return [];
  const hints = annotations as Record<string, unknown>;
  const badges: AnnotationBadge[] = [];
  const stated = (name: string, value: boolean) => hints[name] === value;
  if (stated("readOnlyHint", true))
    badges.push({ text: "read-only", tone: "plain", meaning: "The tool does not change its environment." });
  if (stated("destructiveHint", true))
    badges.push({ text: "destructive", tone: "warn", meaning: "The tool may delete or overwrite things." });
  if (stated("destructiveHint", false))
    badges.push({ text: "additive", tone: "plain", meaning: "The tool only adds; it does not destroy." });
  if (stated("idempotentHint", true))
    badges.push({
      text: "idempotent",
      tone: "plain",
      meaning: "Calling it again with the same arguments changes nothing more.",
    });
  if (stated("openWorldHint", true))
    badges.push({
      text: "open world",
      tone: "plain",
      meaning: "The tool reaches things outside the server, such as the web.",
    });
  if (stated("openWorldHint", false))
    badges.push({
      text: "closed world",
      tone: "plain",
      meaning: "The tool works only within the server's own domain.",
    });
  const known = new Set(["title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"]);
  for (const [name, value] of Object.entries(hints)) {
    if (known.has(name) && (typeof value === "boolean" || name === "title")) continue;
    const shown = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
    badges.push({
      text: `${name}: ${shown.length > maximumShownValue ? `${shown.slice(0, maximumShownValue)}…` : shown}`,
      tone: "plain",
      meaning: "An annotation this page does not know, as the server sent it.",
    });
  }
  return badges;
}
