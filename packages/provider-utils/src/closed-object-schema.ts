import type { JSONSchema } from "@junction/types";
import { isRecord } from "./parse-tool-arguments.js";

const nested = ["items", "additionalItems", "not", "if", "then", "else"];
const nestedLists = ["anyOf", "oneOf", "allOf", "prefixItems"];
const nestedMaps = ["properties", "$defs", "definitions", "patternProperties"];

/**
 * A copy of `schema` where every object schema that does not say otherwise has
 * `additionalProperties: false`: the structured-output rule of Anthropic and Amazon Bedrock
 * ("additionalProperties must be set to false" for JSON outputs). An object that sets
 * `additionalProperties` itself keeps it. Pure: the input is never mutated.
 *
 * @deprecated Closing objects is not enough for those vendors: they also reject numeric, length
 * and most array constraints and open maps. Use `structuredOutputSubset`, which the
 * Anthropic and Bedrock providers send.
 */
export function closedObjectSchema(schema: JSONSchema): JSONSchema {
  return close(schema) as JSONSchema;
}

function close(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(close);
  if (!isRecord(node)) return node;
  const copy: Record<string, unknown> = { ...node };
  for (const key of nested) if (key in copy) copy[key] = close(copy[key]);
  for (const key of nestedLists)
    if (Array.isArray(copy[key])) copy[key] = (copy[key] as unknown[]).map(close);
  for (const key of nestedMaps) {
    const map = copy[key];
    if (isRecord(map))
      copy[key] = Object.fromEntries(Object.entries(map).map(([name, value]) => [name, close(value)]));
  }
  const isObject = copy.type === "object" || (Array.isArray(copy.type) && copy.type.includes("object"));
  if (isObject && !("additionalProperties" in copy)) copy.additionalProperties = false;
  return copy;
}
