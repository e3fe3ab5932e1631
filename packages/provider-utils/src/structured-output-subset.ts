import type { JSONSchema, Warning } from "@junction/types";
import { isRecord } from "./parse-tool-arguments.js";

/**
 * The string formats Anthropic's and Bedrock's structured outputs take
 * (https://platform.claude.com/docs/en/build-with-claude/structured-outputs, "JSON Schema
 * limitations"; the Anthropic SDK's `transformJSONSchema` keeps the same list).
 */
export const STRUCTURED_OUTPUT_FORMATS: ReadonlySet<string> = new Set([
  "date-time",
  "time",
  "date",
  "duration",
  "email",
  "hostname",
  "uri",
  "ipv4",
  "ipv6",
  "uuid",
]);

// Sent as they are.
const keptKeywords = new Set(["type", "title", "description", "default", "required", "$ref"]);
// Name the dialect or the document; they constrain nothing, so they are left out without a note.
const metadataKeywords = new Set(["$schema", "$id", "$comment"]);
// zod's `.int()` bounds every integer by the safe-integer range: no answer comes near it.
const safeIntegerBounds = new Map<string, number>([
  ["minimum", -Number.MAX_SAFE_INTEGER],
  ["maximum", Number.MAX_SAFE_INTEGER],
]);

/**
 * The part of a JSON Schema that Anthropic's and Amazon Bedrock's structured outputs accept
 * (`output_config.format` / `outputConfig.textFormat`), so an ordinary schema is not answered with
 * HTTP 400. Pure: the input is never mutated; key order is kept.
 *
 * - Kept: `type`, `properties`, `required`, `items`, `enum`/`const` of plain values, `anyOf`,
 *   `allOf`, `$ref`, `$defs`/`definitions`, `title`, `description`, `default`, a `format` from
 *   {@link STRUCTURED_OUTPUT_FORMATS}, a `pattern` without the regex features the vendors reject
 *   (backreferences, lookaround, `\b`, counted repetition of 1000 or more), and `minItems` 0 or 1.
 * - `oneOf` becomes `anyOf` (the vendors take only `anyOf`); `minItems` above 1 is sent as 1.
 * - Every object gets `additionalProperties: false`, which the vendors require.
 * - Everything else (`minimum`, `maximum`, `exclusiveMinimum`, `multipleOf`, `minLength`,
 *   `maxLength`, `maxItems`, other formats, a `pattern` beside a kept `format`, …) moves into the
 *   node's `description` as `{minLength: 1, maxLength: 20}`, where the model reads it, as the
 *   Anthropic SDK does. zod's safe-integer bounds on `.int()` are left out.
 * - A map (`z.record`): with a closed set of keys (`propertyNames` with an `enum`) it becomes an
 *   object with one property per key. With open keys (`additionalProperties` a schema,
 *   `patternProperties`, `propertyNames`) it cannot be expressed: the object is closed, the map
 *   described, and an `output-schema-open-map` warning says the model can only answer `{}` there.
 * - A recursive schema (a `$ref` back to `#` or to a definition it sits in) is sent as it is, with
 *   an `output-schema-recursive` warning: the vendors do not take recursion, and there is no
 *   subset of it to send.
 *
 * The caller still validates the answer against the full schema (core does), so a constraint the
 * vendor does not enforce is still checked.
 *
 * @param options.provider The provider's name as people write it, for the warning (`"Anthropic"`).
 *
 * @example
 * ```ts
 * const { schema, warnings } = structuredOutputSubset(request.responseFormat.schema, { provider: "Anthropic" });
 * body.output_config = { format: { type: "json_schema", schema } };
 * ```
 */
export function structuredOutputSubset(
  schema: JSONSchema,
  options: { provider: string },
): { schema: JSONSchema; warnings: Warning[] } {
  const openMaps: string[] = [];
  const result = subset(schema, "#", openMaps);
  const warnings: Warning[] =
    openMaps.length === 0
      ? []
      : [
          {
            code: "output-schema-open-map",
            message: `${options.provider}'s structured output needs every object closed (additionalProperties: false), so the map${openMaps.length === 1 ? "" : "s"} at ${openMaps.join(", ")} ${openMaps.length === 1 ? "was" : "were"} sent as an object without keys and the model can only answer {} there; the answer is still checked against the full schema. Give the object named properties, or use an array of { key, value } entries.`,
          },
        ];
  const recursive = recursiveReferences(schema);
  if (recursive.length > 0) {
    warnings.push({
      code: "output-schema-recursive",
      message: `${options.provider}'s structured output does not take recursive schemas, and this one refers back to itself through ${recursive.join(", ")}; the vendor is likely to reject the request. Write the nesting out to a fixed depth, or ask for a flat list whose items name their parent.`,
    });
  }
  return { schema: isRecord(result) ? result : schema, warnings };
}

/** The `$ref`s that close a cycle: `#` itself, or a definition reachable from its own body. */
function recursiveReferences(schema: Record<string, unknown>): string[] {
  const definitions = new Map<string, unknown>();
  for (const key of ["$defs", "definitions"]) {
    const map = schema[key];
    if (isRecord(map))
      for (const [name, definition] of Object.entries(map))
        definitions.set(`#/${key}/${escapePointer(name)}`, definition);
  }
  const found: string[] = [];
  if (referencesIn(schema).has("#")) found.push("#");
  for (const [pointer, definition] of definitions) {
    const seen = new Set<string>();
    const queue = [...referencesIn(definition)];
    while (queue.length > 0) {
      const next = queue.pop()!;
      if (next === pointer) {
        found.push(pointer);
        break;
      }
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push(...referencesIn(definitions.get(next)));
    }
  }
  return found;
}

function referencesIn(node: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) referencesIn(item, found);
  else if (isRecord(node)) {
    if (typeof node.$ref === "string") found.add(node.$ref);
    for (const [key, value] of Object.entries(node)) {
      // Plain values, not schemas: a `$ref` key inside them refers to nothing.
      if (key !== "enum" && key !== "const" && key !== "default") referencesIn(value, found);
    }
  }
  return found;
}

function subset(node: unknown, path: string, openMaps: string[]): unknown {
  if (!isRecord(node)) return node;
  const out: Record<string, unknown> = {};
  const moved: Record<string, unknown> = {};
  const isObject = includesType(node.type, "object") || isRecord(node.properties);

  for (const [key, value] of Object.entries(node)) {
    if (metadataKeywords.has(key)) continue;
    if (keptKeywords.has(key)) {
      out[key] = value;
      continue;
    }
    if (safeIntegerBounds.get(key) === value && includesType(node.type, "integer")) continue;
    switch (key) {
      case "properties":
      case "$defs":
      case "definitions":
        if (isRecord(value)) out[key] = subsetMap(value, `${path}/${key}`, openMaps);
        else moved[key] = value;
        break;
      case "anyOf":
      case "allOf":
        if (Array.isArray(value)) out[key] = subsetList(value, `${path}/${key}`, openMaps);
        else moved[key] = value;
        break;
      case "oneOf":
        // The variants of a union meant to be exclusive (zod's discriminated union) read the same as anyOf.
        if (Array.isArray(value) && !("anyOf" in node))
          out.anyOf = subsetList(value, `${path}/oneOf`, openMaps);
        else moved[key] = value;
        break;
      case "items":
        if (isRecord(value)) out.items = subset(value, `${path}/items`, openMaps);
        else moved[key] = value;
        break;
      case "enum":
        if (Array.isArray(value) && value.length > 0 && value.every(isPlainValue)) out.enum = value;
        else moved[key] = value;
        break;
      case "const":
        if (isPlainValue(value)) out.const = value;
        else moved[key] = value;
        break;
      case "format":
        if (typeof value === "string" && STRUCTURED_OUTPUT_FORMATS.has(value)) out.format = value;
        else moved[key] = value;
        break;
      case "pattern":
        // Decided once the format is known (below); the placeholder keeps the key's place.
        out.pattern = value;
        break;
      case "minItems":
        if (typeof value === "number" && value > 1) {
          out.minItems = 1;
          moved.minItems = value;
        } else out.minItems = value;
        break;
      case "additionalProperties":
      case "propertyNames":
      case "patternProperties":
        if (isObject) {
          // Rebuilt below; the placeholder keeps additionalProperties in its place.
          if (key === "additionalProperties") out.additionalProperties = false;
        } else moved[key] = value;
        break;
      default:
        moved[key] = value;
    }
  }

  if ("pattern" in out) {
    const pattern = out.pattern;
    // A kept format already constrains the string (zod adds its own long pattern to each format).
    if (typeof pattern !== "string" || "format" in out || !isSupportedPattern(pattern)) {
      delete out.pattern;
      moved.pattern = pattern;
    }
  }
  if (isObject) closeObject({ node, out, moved }, { path, openMaps });

  const movedKeys = Object.keys(moved);
  if (movedKeys.length > 0) {
    const note = `{${movedKeys.map((key) => `${key}: ${JSON.stringify(moved[key])}`).join(", ")}}`;
    out.description =
      typeof out.description === "string" && out.description !== "" ? `${out.description}\n\n${note}` : note;
  }
  return out;
}

/**
 * Closes an object schema: `additionalProperties: false`, a map with a closed set of keys spelled
 * out as properties, and an open map described and reported.
 */
function closeObject(
  {
    node,
    out,
    moved,
  }: { node: Record<string, unknown>; out: Record<string, unknown>; moved: Record<string, unknown> },
  context: { path: string; openMaps: string[] },
): void {
  const { additionalProperties, propertyNames, patternProperties } = node;
  const keys = isRecord(propertyNames) && Array.isArray(propertyNames.enum) ? propertyNames.enum : undefined;
  const valueSchema = isRecord(additionalProperties) ? additionalProperties : undefined;
  const properties = isRecord(out.properties) ? { ...out.properties } : {};

  if (keys?.every((key) => typeof key === "string") && valueSchema && patternProperties === undefined) {
    // `z.record(z.enum([...]), value)`: every key is known, so each becomes a property of its own.
    const value = subset(valueSchema, `${context.path}/additionalProperties`, context.openMaps);
    for (const key of keys) if (!(key in properties)) properties[key] = value;
  } else {
    if (propertyNames !== undefined) moved.propertyNames = propertyNames;
    if (patternProperties !== undefined) moved.patternProperties = patternProperties;
    // `additionalProperties: true` only allows more keys: closing it leaves every answer valid.
    if (valueSchema) moved.additionalProperties = valueSchema;
    if (valueSchema || patternProperties !== undefined) context.openMaps.push(context.path);
  }
  out.properties = properties;
  if (out.additionalProperties !== false) out.additionalProperties = false;
}

function subsetMap(map: Record<string, unknown>, path: string, openMaps: string[]): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(map).map(([name, value]) => [
      name,
      subset(value, `${path}/${escapePointer(name)}`, openMaps),
    ]),
  );
}

function subsetList(list: unknown[], path: string, openMaps: string[]): unknown[] {
  return list.map((item, index) => subset(item, `${path}/${index}`, openMaps));
}

/**
 * Whether a regex avoids what the vendors document as unsupported in `pattern`: backreferences,
 * lookahead and lookbehind, word boundaries, and counted repetition with large bounds.
 */
function isSupportedPattern(pattern: string): boolean {
  if (/\\[1-9]|\\k<|\(\?<?[=!]|\\[bB]/.test(pattern)) return false;
  for (const match of pattern.matchAll(/\{(\d+)(?:,(\d*))?\}/g)) {
    if (Number(match[1]) >= 1000 || (match[2] !== undefined && Number(match[2]) >= 1000)) return false;
  }
  return true;
}

function includesType(type: unknown, name: string): boolean {
  return type === name || (Array.isArray(type) && type.includes(name));
}

function isPlainValue(value: unknown): boolean {
  return value === null || typeof value !== "object";
}

function escapePointer(name: string): string {
  return name.replaceAll("~", "~0").replaceAll("/", "~1");
}
