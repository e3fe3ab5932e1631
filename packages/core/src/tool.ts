import {
  errorMessage,
  type JSONSchema,
  JunctionError,
  type Tool,
  type ToolContext,
  type ToolOutput,
} from "@junction/types";
import { type ZodObject, type ZodType, z } from "zod";

/** Where `tool()` keeps its zod schema and unvalidated body, for the agent's own validation. */
export const zodToolInternals: unique symbol = Symbol.for("junction.tool.zod") as never;

/** What `tool()` attaches to the tools it makes. */
export interface ZodToolInternals {
  schema: ZodType;
  execute(input: unknown, context?: ToolContext): Promise<ToolOutput>;
}

/** A tool made by `tool()`: a plain `Tool`, carrying its zod schema. */
export type ZodTool<Input> = Tool<Input> & { readonly [zodToolInternals]: ZodToolInternals };

/** What `tool()` takes. */
export interface ToolDefinitionWithSchema<S extends ZodObject> {
  /** The name the model calls it by. Keep it to `[a-zA-Z0-9_-]`, 64 characters at most. */
  name: string;
  /** What it does and when to use it: the model reads this. */
  description: string;
  /** The input, as a zod object. Its JSON Schema (zod's own conversion) is what the model sees. */
  schema: S;
  /**
   * Optional MCP-style hints, read by approval policies such as `annotationPolicy` and by the
   * exfiltration guard (`openWorldHint: false` makes the tool's results private data).
   */
  annotations?: Tool["annotations"];
  /**
   * Optional JSON Schema of the tool's `structuredContent`, sent to the model with the tool's
   * definition. Not checked against what `execute` returns: the tool is your own code.
   */
  outputSchema?: Tool["outputSchema"];
  /**
   * Send the tool's definition only once the model finds it with the tool search an Agent adds
   * (`search_tools`, or the vendor's own): it saves the definition's tokens on every request and
   * costs a search before the tool's first use. Ignored with `toolSearch: { mode: "off" }`.
   * @default false
   */
  defer?: boolean;
  /**
   * Send the tool's definition on every request, even when the Agent defers tools (the automatic
   * mode of `toolSearch`, or `defer`). Wins over `defer`.
   * @default false
   */
  alwaysLoad?: boolean;
  /** Runs the tool with validated input (defaults and transforms applied). */
  execute(input: z.output<S>, context?: ToolContext): Promise<ToolOutput>;
}

/**
 * Defines a local tool with a zod schema. Its `inputSchema` is made with zod's own JSON
 * Schema conversion; input is validated against the zod schema before `execute` runs.
 *
 * @example
 * ```ts
 * const add = tool({
 *   name: "add",
 *   description: "Adds two numbers",
 *   schema: z.object({ a: z.number(), b: z.number() }),
 *   execute: async ({ a, b }) => String(a + b),
 * });
 * ```
 */
export function tool<S extends ZodObject>(definition: ToolDefinitionWithSchema<S>): ZodTool<z.output<S>> {
  const { name, description, schema, annotations, outputSchema, defer, alwaysLoad } = definition;
  if (typeof name !== "string" || name.length === 0) {
    throw new JunctionError("invalid-argument", "tool(): `name` must be a non-empty string.");
  }
  if (!(schema instanceof z.ZodType)) {
    throw new JunctionError("invalid-argument", `tool("${name}"): \`schema\` must be a zod object schema.`);
  }
  const inputSchema = toJSONSchema(schema, name);
  const internals: ZodToolInternals = {
    schema,
    execute: (input, context) => definition.execute(input as z.output<S>, context),
  };
  return {
    name,
    description,
    inputSchema,
    ...(outputSchema ? { outputSchema } : {}),
    ...(annotations ? { annotations } : {}),
    ...(typeof defer === "boolean" ? { defer } : {}),
    ...(typeof alwaysLoad === "boolean" ? { alwaysLoad } : {}),
    async execute(input, context) {
      const parsed = schema.safeParse(input);
      if (!parsed.success) {
        throw new JunctionError(
          "tool-input-invalid",
          `Invalid input for tool "${name}":\n${z.prettifyError(parsed.error)}`,
        );
      }
      return definition.execute(parsed.data as z.output<S>, context);
    },
    [zodToolInternals]: internals,
  };
}

function toJSONSchema(schema: ZodType, name: string): JSONSchema {
  try {
    const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: "input" }) as JSONSchema;
    return rest;
  } catch (error) {
    throw new JunctionError(
      "invalid-argument",
      `tool("${name}"): its zod schema cannot be expressed as JSON Schema: ${errorMessage(error)}`,
      { cause: error },
    );
  }
}

/** The zod internals of a tool made by `tool()`, if it is one. */
export function getZodToolInternals(candidate: Tool): ZodToolInternals | undefined {
  return (candidate as Partial<ZodTool<unknown>>)[zodToolInternals];
}
