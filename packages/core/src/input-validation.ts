import type { JSONSchema, Tool, Warning } from "@junction/types";
import { errorMessage } from "@junction/types";
import { type ZodType, z } from "zod";
import { getZodToolInternals } from "./tool.js";

/** The outcome of checking a model's arguments against a tool's schema. */
export type InputCheck = { ok: true; input: unknown } | { ok: false; message: string };

/** Checks arguments for one tool: zod for `tool()` tools, JSON Schema (via zod) for the rest. */
export interface InputValidator {
  check(input: unknown): InputCheck;
  /** Why validation is permissive, when the schema could not be converted. */
  warning?: Warning;
  /** True when the validated input (defaults, transforms) should be passed to the tool. */
  usesParsedInput: boolean;
}

const cache = new WeakMap<Tool, { schema: JSONSchema; validator: InputValidator }>();

/**
 * A JSON Schema converted to zod, by the schema object: an MCP client's tools share the schema
 * objects of its cached `tools/list` while each listing makes new `Tool` objects (a step, an
 * Agent), so the conversion (most of a first call's validation) is done once per schema.
 */
const converted = new WeakMap<object, { schema: ZodType } | { error: unknown }>();

/**
 * The validator for a tool, cached per tool object and schema. A JSON Schema that zod's
 * `fromJSONSchema` cannot convert gives a permissive validator and a warning: the MCP server
 * validates for itself.
 */
export function inputValidatorFor(candidate: Tool): InputValidator {
  const cached = cache.get(candidate);
  if (cached && cached.schema === candidate.inputSchema) return cached.validator;
  const validator = createValidator(candidate);
  cache.set(candidate, { schema: candidate.inputSchema, validator });
  return validator;
}

function createValidator(candidate: Tool): InputValidator {
  const internals = getZodToolInternals(candidate);
  if (internals) return { check: zodCheck(internals.schema), usesParsedInput: true };
  const conversion = convertSchema(candidate.inputSchema);
  if ("error" in conversion) {
    return {
      check: (input) => ({ ok: true, input }),
      usesParsedInput: false,
      warning: {
        code: "tool-schema-unsupported",
        message: `The input schema of tool "${candidate.name}" could not be converted for local validation (${errorMessage(conversion.error)}); its arguments are passed unchecked and the server validates them.`,
      },
    };
  }
  // MCP tools get the model's arguments untouched: the schema only checks them.
  return { check: zodCheck(conversion.schema), usesParsedInput: false };
}

/** A tool's JSON Schema as zod, or why it cannot be: converted once per schema object. */
function convertSchema(inputSchema: unknown): { schema: ZodType } | { error: unknown } {
  if (typeof inputSchema !== "object" || inputSchema === null)
    return { error: new TypeError("inputSchema is not an object") };
  const known = converted.get(inputSchema);
  if (known) return known;
  let conversion: { schema: ZodType } | { error: unknown };
  try {
    conversion = { schema: z.fromJSONSchema(inputSchema as Parameters<typeof z.fromJSONSchema>[0]) };
  } catch (error) {
    conversion = { error };
  }
  converted.set(inputSchema, conversion);
  return conversion;
}

function zodCheck(schema: ZodType): (input: unknown) => InputCheck {
  return (input) => {
    const result = schema.safeParse(input);
    if (result.success) return { ok: true, input: result.data };
    return { ok: false, message: z.prettifyError(result.error) };
  };
}
