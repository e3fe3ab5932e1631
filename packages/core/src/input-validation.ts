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
  let schema: ZodType;
  try {
    if (typeof candidate.inputSchema !== "object" || candidate.inputSchema === null) {
      throw new TypeError("inputSchema is not an object");
    }
    schema = z.fromJSONSchema(candidate.inputSchema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (error) {
    return {
      check: (input) => ({ ok: true, input }),
      usesParsedInput: false,
      warning: {
        code: "tool-schema-unsupported",
        message: `The input schema of tool "${candidate.name}" could not be converted for local validation (${errorMessage(error)}); its arguments are passed unchecked and the server validates them.`,
      },
    };
  }
  // MCP tools get the model's arguments untouched: the schema only checks them.
  return { check: zodCheck(schema), usesParsedInput: false };
}

function zodCheck(schema: ZodType): (input: unknown) => InputCheck {
  return (input) => {
    const result = schema.safeParse(input);
    if (result.success) return { ok: true, input: result.data };
    return { ok: false, message: z.prettifyError(result.error) };
  };
}
