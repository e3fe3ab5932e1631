import { isRecord } from "@junction/provider-utils";
import type { JSONSchema } from "@junction/types";

/** Keywords Gemini's `parametersJsonSchema` accepts; they are kept as they are (subschemas cleaned). */
const KEPT_KEYWORDS = new Set([
  "type",
  "format",
  "title",
  "description",
  "nullable",
  "enum",
  "required",
  "minItems",
  "maxItems",
  "minimum",
  "maximum",
  "minLength",
  "maxLength",
  "pattern",
  "minProperties",
  "maxProperties",
  "propertyOrdering",
  "default",
  "example",
]);

/** Annotations with no effect on validation: dropped without a warning. */
const IGNORED_ANNOTATIONS = new Set([
  "$schema",
  "$id",
  "$comment",
  "$anchor",
  "$defs",
  "definitions",
  "examples",
  "readOnly",
  "writeOnly",
  "deprecated",
  "contentEncoding",
  "contentMediaType",
]);

/** The result of fitting a JSON Schema to Gemini's subset. */
export interface CleanedGeminiSchema {
  /** A new object; the input is never modified. */
  schema: JSONSchema;
  /** Validation keywords that were removed (the tool itself still validates its input). */
  removedKeywords: string[];
  /** References that could not be inlined (recursive or not local) and became permissive `{}`. */
  unresolvedRefs: string[];
}

/**
 * Fits a tool's JSON Schema to what Gemini accepts in `parametersJsonSchema`: local `$ref`s
 * are inlined from `$defs`/`definitions` (a recursive or external reference becomes a
 * permissive `{}`), `oneOf` becomes `anyOf`, `const` becomes a one-value `enum`, `allOf`
 * members are merged, and keywords outside Gemini's subset are removed. Pure: the caller's
 * schema is never mutated.
 */
export function cleanGeminiJSONSchema(schema: JSONSchema): CleanedGeminiSchema {
  const removed = new Set<string>();
  const unresolved = new Set<string>();
  const definitions = {
    ...(isRecord(schema.definitions) ? schema.definitions : {}),
    ...(isRecord(schema.$defs) ? schema.$defs : {}),
  } as Record<string, unknown>;

  const resolve = (reference: string): unknown => {
    const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(reference);
    if (!match?.[2]) return undefined;
    const key = decodeURIComponent(match[2]).replace(/~1/g, "/").replace(/~0/g, "~");
    return Object.hasOwn(definitions, key) ? definitions[key] : undefined;
  };

  const clean = (node: unknown, expanding: readonly string[]): JSONSchema => {
    if (node === true || node === undefined) return {};
    if (!isRecord(node)) {
      removed.add(node === false ? "false schema" : "non-object schema");
      return {};
    }
    if (typeof node.$ref === "string") {
      const reference = node.$ref;
      const target = resolve(reference);
      const { $ref: _reference, ...siblings } = node;
      if (target === undefined || expanding.includes(reference)) {
        unresolved.add(reference);
        return clean(siblings, expanding);
      }
      // Keywords beside a $ref (often a description) refine the referenced schema.
      const resolved = clean(target, [...expanding, reference]);
      return { ...resolved, ...clean(siblings, expanding) };
    }

    const result: JSONSchema = {};
    for (const [key, value] of Object.entries(node)) {
      if (KEPT_KEYWORDS.has(key)) {
        result[key] = structuredClone(value);
        continue;
      }
      if (IGNORED_ANNOTATIONS.has(key)) continue;
      switch (key) {
        case "properties":
          if (isRecord(value)) {
            result.properties = Object.fromEntries(
              Object.entries(value).map(([name, property]) => [name, clean(property, expanding)]),
            );
          } else removed.add(key);
          break;
        case "items":
          if (Array.isArray(value)) result.prefixItems = value.map((item) => clean(item, expanding));
          else result.items = clean(value, expanding);
          break;
        case "prefixItems":
          if (Array.isArray(value)) result.prefixItems = value.map((item) => clean(item, expanding));
          else removed.add(key);
          break;
        case "additionalProperties":
          result.additionalProperties = typeof value === "boolean" ? value : clean(value, expanding);
          break;
        case "anyOf":
        case "oneOf":
          if (Array.isArray(value)) {
            const members = value.map((member) => clean(member, expanding));
            result.anyOf = [...((result.anyOf as JSONSchema[] | undefined) ?? []), ...members];
          } else removed.add(key);
          break;
        case "allOf":
          if (Array.isArray(value))
            Object.assign(result, mergeAll(value.map((member) => clean(member, expanding))));
          else removed.add(key);
          break;
        case "const":
          if (!("enum" in node)) result.enum = [structuredClone(value)];
          break;
        default:
          removed.add(key);
      }
    }
    return result;
  };

  return { schema: clean(schema, []), removedKeywords: [...removed], unresolvedRefs: [...unresolved] };
}

/** Merges `allOf` members: properties and `required` are united, other keywords first one wins. */
function mergeAll(members: JSONSchema[]): JSONSchema {
  const merged: JSONSchema = {};
  for (const member of members) {
    for (const [key, value] of Object.entries(member)) {
      if (key === "properties" && isRecord(value)) {
        merged.properties = { ...(merged.properties as JSONSchema | undefined), ...value };
      } else if (key === "required" && Array.isArray(value)) {
        merged.required = [...new Set([...((merged.required as string[] | undefined) ?? []), ...value])];
      } else if (!(key in merged)) {
        merged[key] = value;
      }
    }
  }
  return merged;
}
