import type { ToolResultPart, Warning } from "@junction/types";

/** An MCP `resource_link` content part, as far as a text line about it needs. */
export interface ResourceLinkDescription {
  uri: string;
  name: string;
  mimeType?: string;
  description?: string;
}

/**
 * A resource link in words, for a vendor that has no link part: `name <uri>`, then the MIME type
 * and description in parentheses when there are any: `notes.md <file:///notes.md> (text/markdown, my notes)`.
 */
export function describeResourceLink(link: ResourceLinkDescription): string {
  const details = [link.mimeType, link.description].filter(Boolean).join(", ");
  return `${link.name} <${link.uri}>${details ? ` (${details})` : ""}`;
}

/**
 * The text line a resource link becomes: `Resource link: ` and {@link describeResourceLink}.
 *
 * @example
 * ```ts
 * resourceLinkText({ uri: "file:///big.csv", name: "big.csv", mimeType: "text/csv" });
 * // "Resource link: big.csv <file:///big.csv> (text/csv)"
 * ```
 */
export function resourceLinkText(link: ResourceLinkDescription): string {
  return `Resource link: ${describeResourceLink(link)}`;
}

/** Where a content part stood: in a user message, or in a tool result. */
export type ContentPartPlace = "user-content" | "tool-result";

/**
 * What a provider sends in place of a content part its vendor cannot take (audio, an image type
 * or resource it has no form for), so that nothing is dropped silently: a `Warning` with the code
 * `<where>-<what>-unsupported` ("Anthropic cannot take audio (audio/wav) in a tool result; a text
 * note was sent in its place.") and the note for the model ("[audio (audio/wav) omitted: not
 * supported by this model provider]").
 *
 * @param options.provider The provider's name as people write it (`"Anthropic"`).
 * @param options.what The code's middle part: `"audio"`, `"image-type"`, `"resource"`, `"part"`.
 * @param options.description The part in words, as it follows "cannot take": `"audio (audio/wav)"`.
 */
export function omittedPartNote(options: {
  provider: string;
  where: ContentPartPlace;
  what: string;
  description: string;
}): { warning: Warning; text: string } {
  const place = options.where === "tool-result" ? "a tool result" : "a user message";
  return {
    warning: {
      code: `${options.where}-${options.what}-unsupported`,
      message: `${options.provider} cannot take ${options.description} in ${place}; a text note was sent in its place.`,
    },
    text: `[${options.description} omitted: not supported by this model provider]`,
  };
}

/**
 * The text a provider sends in place of a content part it has no native form for, and the warning
 * that says so where something is lost. Each provider carries natively what its vendor takes and
 * hands the rest here, so every vendor words the same fallbacks alike:
 *
 * - `text`: the text itself;
 * - `resource_link`: {@link resourceLinkText}, no warning (nothing is lost);
 * - a `resource` without contents: `Resource: <uri>`; with text: that line and the text; neither warns;
 * - `image`, `audio`, a `resource` with a blob, or a part of an unknown type:
 *   {@link omittedPartNote} (`image-type`, `audio`, `resource`, `part`).
 *
 * @example
 * ```ts
 * const note = textInPlaceOf(part, { provider: "Acme", where: "tool-result" });
 * if (note.warning) warnings.push(note.warning);
 * blocks.push({ type: "text", text: note.text });
 * ```
 */
export function textInPlaceOf(
  part: ToolResultPart,
  options: { provider: string; where: ContentPartPlace },
): { text: string; warning?: Warning } {
  switch (part.type) {
    case "text":
      return { text: part.text };
    case "image":
      return omittedPartNote({
        ...options,
        what: "image-type",
        description: `an image of type ${part.mimeType}`,
      });
    case "audio":
      return omittedPartNote({ ...options, what: "audio", description: `audio (${part.mimeType})` });
    case "resource": {
      const { uri, mimeType, text, blob } = part.resource;
      if (typeof text === "string") return { text: `Resource: <${uri}>\n${text}` };
      if (typeof blob === "string") {
        const description = `the resource ${uri} (${mimeType ?? "application/octet-stream"})`;
        return omittedPartNote({ ...options, what: "resource", description });
      }
      return { text: `Resource: <${uri}>` };
    }
    case "resource_link":
      return { text: resourceLinkText(part) };
    default: {
      const unknown: never = part;
      const type = JSON.stringify((unknown as { type?: unknown }).type);
      return omittedPartNote({ ...options, what: "part", description: `a part of type ${type}` });
    }
  }
}
