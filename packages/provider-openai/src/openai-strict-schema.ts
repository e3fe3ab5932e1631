import { isRecord } from "@junction/provider-utils";
import type { JSONSchema } from "@junction/types";

/** The outcome of making a JSON Schema fit OpenAI's strict mode. */
export type OpenAIStrictSchemaResult =
  | {
      ok: true;
      /** A new schema; the input is never mutated. */
      schema: JSONSchema;
      /** JSON pointers of keywords strict mode rejects and that were removed (constraints only). */
      removed: string[];
    }
  | {
      ok: false;
      /** Why the schema cannot be expressed in strict mode, naming the JSON pointer. */
      reason: string;
    };

// Keywords OpenAI's strict mode (Structured Outputs) accepts.
const supportedKeywords = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "const",
  "anyOf",
  "$ref",
  "$defs",
  "definitions",
  "description",
  "title",
  "pattern",
  "format",
  "multipleOf",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "minItems",
  "maxItems",
]);

// Keywords that change which values are valid in ways strict mode cannot express: removing them
// would make the model produce arguments the tool rejects, so the tool stays non-strict instead.
const blockingKeywords = new Set([
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "patternProperties",
  "propertyNames",
  "unevaluatedProperties",
  "unevaluatedItems",
  "dependentRequired",
  "dependentSchemas",
  "dependencies",
  "prefixItems",
]);

// Metadata with no meaning for validation: dropped without a warning.
const metadataKeywords = new Set(["$schema", "$id", "$comment"]);

const supportedFormats = new Set([
  "date-time",
  "time",
  "date",
  "duration",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "uuid",
]);

class NotStrict extends Error {}

/**
 * Rewrites a JSON Schema to OpenAI's strict function-calling rules: every object lists all its
 * properties in `required` (optional ones become nullable), `additionalProperties` is `false`,
 * `oneOf` becomes `anyOf`, and keywords strict mode rejects (`default`, `minLength`, …) are
 * removed and reported. Schemas strict mode cannot express (open maps, `allOf`, tuples, schemas
 * without a type) are reported as not strict-compatible. Pure: the input is never mutated.
 */
export function toOpenAIStrictSchema(schema: JSONSchema): OpenAIStrictSchemaResult {
  const removed: string[] = [];
  try {
    const result = transform(schema, "#", removed);
    if (!includesType(result.type, "object")) throw new NotStrict("#: the root must be an object schema");
    return { ok: true, schema: result, removed };
  } catch (error) {
    if (error instanceof NotStrict) return { ok: false, reason: error.message };
    throw error;
  }
}

function transform(node: unknown, path: string, removed: string[]): JSONSchema {
  if (!isRecord(node)) throw new NotStrict(`${path}: a schema that accepts any value has no strict form`);
  if ("oneOf" in node && "anyOf" in node) throw new NotStrict(`${path}: both oneOf and anyOf`);
  if (
    !(
      "type" in node ||
      "anyOf" in node ||
      "oneOf" in node ||
      "$ref" in node ||
      "enum" in node ||
      "const" in node
    )
  )
    throw new NotStrict(`${path}: a schema without a type has no strict form`);

  const out: JSONSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (metadataKeywords.has(key)) continue;
    if (blockingKeywords.has(key)) throw new NotStrict(`${path}: ${key} is not supported in strict mode`);
    if (key === "oneOf") {
      out.anyOf = transformList(value, `${path}/oneOf`, removed);
      continue;
    }
    if (!supportedKeywords.has(key)) {
      removed.push(`${path}/${key}`);
      continue;
    }
    switch (key) {
      case "anyOf":
        out.anyOf = transformList(value, `${path}/anyOf`, removed);
        break;
      case "items":
        if (Array.isArray(value)) throw new NotStrict(`${path}/items: tuple items are not supported`);
        out.items = transform(value, `${path}/items`, removed);
        break;
      case "$defs":
      case "definitions":
        out[key] = transformMap(value, `${path}/${key}`, removed);
        break;
      case "format":
        if (typeof value === "string" && supportedFormats.has(value)) out.format = value;
        else removed.push(`${path}/format`);
        break;
      case "properties":
      case "required":
      case "additionalProperties":
        // Object keywords are rebuilt below.
        break;
      default:
        out[key] = value;
    }
  }

  if (includesType(node.type, "object") || "properties" in node) {
    const additional = node.additionalProperties;
    if (additional !== undefined && additional !== false)
      throw new NotStrict(`${path}: additionalProperties other than false (an open map) is not supported`);
    const properties = isRecord(node.properties) ? node.properties : {};
    const required = new Set(Array.isArray(node.required) ? node.required : []);
    const strictProperties: JSONSchema = {};
    for (const [name, property] of Object.entries(properties)) {
      const converted = transform(property, `${path}/properties/${escapePointer(name)}`, removed);
      strictProperties[name] = required.has(name) ? converted : nullable(converted);
    }
    out.properties = strictProperties;
    out.required = Object.keys(strictProperties);
    out.additionalProperties = false;
  }
  return out;
}

function transformList(value: unknown, path: string, removed: string[]): JSONSchema[] {
  if (!Array.isArray(value) || value.length === 0) throw new NotStrict(`${path}: must be a non-empty array`);
  return value.map((item, index) => transform(item, `${path}/${index}`, removed));
}

function transformMap(value: unknown, path: string, removed: string[]): JSONSchema {
  if (!isRecord(value)) throw new NotStrict(`${path}: must be an object`);
  const out: JSONSchema = {};
  for (const [name, schema] of Object.entries(value))
    out[name] = transform(schema, `${path}/${escapePointer(name)}`, removed);
  return out;
}

/** An optional property in strict mode is a required one that also accepts `null`. */
function nullable(schema: JSONSchema): JSONSchema {
  const type = schema.type;
  // A nullable object is spelled as anyOf, the form OpenAI documents for nested objects.
  if (includesType(type, "object")) return { anyOf: [schema, { type: "null" }] };
  if (typeof type === "string" && !("anyOf" in schema) && !("$ref" in schema)) {
    if (type === "null") return schema;
    const out: JSONSchema = { ...schema, type: [type, "null"] };
    if (Array.isArray(schema.enum) && !schema.enum.includes(null)) out.enum = [...schema.enum, null];
    return out;
  }
  if (Array.isArray(type) && !("anyOf" in schema) && !("$ref" in schema)) {
    const out: JSONSchema = { ...schema, type: type.includes("null") ? type : [...type, "null"] };
    if (Array.isArray(schema.enum) && !schema.enum.includes(null)) out.enum = [...schema.enum, null];
    return out;
  }
  if (
    Array.isArray(schema.anyOf) &&
    Object.keys(schema).every((key) => key === "anyOf" || key === "description")
  ) {
    const hasNull = schema.anyOf.some((option) => isRecord(option) && option.type === "null");
    return hasNull ? schema : { ...schema, anyOf: [...schema.anyOf, { type: "null" }] };
  }
  return { anyOf: [schema, { type: "null" }] };
}

function includesType(type: unknown, name: string): boolean {
  return type === name || (Array.isArray(type) && type.includes(name));
}

function escapePointer(name: string): string {
  return name.replace(/~/g, "~0").replace(/\//g, "~1");
}
