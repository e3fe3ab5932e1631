import type { JSONSchema, Warning } from "@junction/types";
import { isRecord } from "./parse-tool-arguments.js";

const topLevelCombinators = ["oneOf", "anyOf", "allOf"] as const;

/**
 * A tool's input schema for a vendor that needs a plain object schema at the top (Anthropic,
 * Bedrock): a copy (the tool's own schema is never changed), with `type: "object"` added where
 * the schema has no `type`. A schema such a vendor rejects (`oneOf`/`anyOf`/`allOf` at the top,
 * or another `type`) becomes an open object schema, keeping its description, with a
 * `tool-schema-unsupported` warning; something that is no schema object at all becomes
 * `{ type: "object" }` with `tool-schema-invalid`. The tool still validates its input itself.
 *
 * @param options.provider The provider's name as people write it, for the warning (`"Anthropic"`).
 */
export function objectInputSchema(
  tool: { name: string; inputSchema: unknown },
  options: { provider: string },
): { schema: JSONSchema; warning?: Warning } {
  const schema = tool.inputSchema;
  if (!isRecord(schema)) {
    return {
      schema: { type: "object" },
      warning: {
        code: "tool-schema-invalid",
        message: `Tool "${tool.name}" has no JSON Schema object as its input schema; an open object schema was sent instead.`,
      },
    };
  }
  const copy = structuredClone(schema);
  const combinator = topLevelCombinators.find((key) => key in copy);
  if (combinator || (copy.type !== undefined && copy.type !== "object")) {
    const what = combinator ? `"${combinator}"` : `type ${JSON.stringify(copy.type)}`;
    return {
      schema:
        typeof copy.description === "string"
          ? { type: "object", description: copy.description }
          : { type: "object" },
      warning: {
        code: "tool-schema-unsupported",
        message: `Tool "${tool.name}": ${options.provider} needs an object schema at the top, not ${what}; an open object schema was sent instead, and the tool validates its input itself.`,
      },
    };
  }
  return { schema: copy.type === undefined ? { ...copy, type: "object" } : copy };
}
