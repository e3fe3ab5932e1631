import { JunctionError } from "@junction/types";
import type Ajv from "ajv";

type Validator = ReturnType<Ajv["compile"]>;

/** The one Ajv, loaded at the first check: a command that checks no arguments (a CLI chat) never loads it. */
let loadedAjv: Promise<Ajv> | undefined;

function schemaCompiler(): Promise<Ajv> {
  loadedAjv ??= import("ajv").then(
    ({ default: AjvClass }) => new AjvClass({ strict: false, allErrors: true, validateFormats: false }),
  );
  return loadedAjv;
}

/** How many compiled schemas are kept; the oldest goes (and Ajv forgets it) past this. */
const maximumCachedValidators = 256;
/** Compiled validators by schema text: one per tool, however often it is called. `null`: cannot compile. */
const validators = new Map<string, { validate: Validator | null; schema?: object }>();

/** How many compiled validators are cached, for tests. */
export function cachedValidatorCount(): number {
  return validators.size;
}

function validatorFor(ajv: Ajv, schema: object): Validator | null {
  const { $schema: _ignored, ...rest } = schema as Record<string, unknown>;
  let key: string;
  try {
    key = JSON.stringify(rest);
  } catch {
    return null; // a schema too deep to serialise: the server enforces its own schema
  }
  const cached = validators.get(key);
  if (cached) {
    // Most recently used last, so the oldest is evicted first.
    validators.delete(key);
    validators.set(key, cached);
    return cached.validate;
  }
  let validate: Validator | null;
  try {
    validate = ajv.compile(rest);
  } catch {
    validate = null;
  }
  validators.set(key, { validate, schema: rest });
  if (validators.size > maximumCachedValidators) {
    const [oldestKey, oldest] = validators.entries().next().value!;
    validators.delete(oldestKey);
    if (oldest.schema && oldest.validate) ajv.removeSchema(oldest.schema);
  }
  return validate;
}

/**
 * Checks the arguments a person typed into a tool form against the tool's input schema, so a
 * mistake is explained before anything reaches the server. A schema the validator cannot
 * compile is left to the server to enforce.
 */
export async function checkToolArguments(
  toolName: string,
  schema: unknown,
  args: unknown,
): Promise<Record<string, unknown>> {
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    throw new JunctionError("tool-input-invalid", `The arguments for ${toolName} must be a JSON object.`);
  }
  if (typeof schema !== "object" || schema === null) return args as Record<string, unknown>;
  const validate = validatorFor(await schemaCompiler(), schema);
  if (!validate) return args as Record<string, unknown>;
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
