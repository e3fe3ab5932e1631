import { JunctionError } from "@junction/types";
import Ajv from "ajv";

const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });

/**
 * Checks the arguments a person typed into a tool form against the tool's input schema, so a
 * mistake is explained before anything reaches the server. A schema the validator cannot
 * compile is left to the server to enforce.
 */
export function checkToolArguments(
  toolName: string,
  schema: unknown,
  args: unknown,
): Record<string, unknown> {
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    throw new JunctionError("tool-input-invalid", `The arguments for ${toolName} must be a JSON object.`);
  }
  if (typeof schema !== "object" || schema === null) return args as Record<string, unknown>;
  let validate: ReturnType<typeof ajv.compile>;
  try {
    const { $schema: _ignored, ...rest } = schema as Record<string, unknown>;
    validate = ajv.compile(rest);
  } catch {
    return args as Record<string, unknown>;
  }
  if (!validate(args)) {
    const problems = (validate.errors ?? []).map((error) => {
      const where = error.instancePath ? error.instancePath.slice(1).replaceAll("/", ".") : "";
      if (error.keyword === "required") return `${String(error.params.missingProperty)} is required`;
      if (error.keyword === "additionalProperties") {
        return `${String(error.params.additionalProperty)} is not an argument of this tool`;
      }
      return `${where || "the arguments"} ${error.message ?? "is invalid"}`;
    });
    throw new JunctionError(
      "tool-input-invalid",
      `The arguments for ${toolName} do not match its input schema: ${problems.join("; ")}.`,
    );
  }
  return args as Record<string, unknown>;
}
