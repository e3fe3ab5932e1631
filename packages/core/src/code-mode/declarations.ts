import type { JSONSchema } from "@junction/types";

/**
 * The TypeScript declarations a program's tools are described with, in the program tool's
 * description: `declare namespace tools { … }`, one function per tool, its input type from the
 * tool's `inputSchema` and its result type from `outputSchema` (else `string`: the result's
 * text). Pure: names and schemas in, text and the name each function calls out.
 */

/** A tool as code mode declares it. */
export interface DeclaredTool {
  /** The tool's real name (with its MCP prefix). */
  name: string;
  /** The source's short name (its prefix or name): the namespace the tool is reached under. */
  namespace?: string;
  /** The prefix the source adds to its tools' names, stripped inside the namespace. */
  prefix?: string;
  description?: string;
  inputSchema: JSONSchema;
  outputSchema?: JSONSchema;
  /**
   * Offered to the model directly too: only named (`fs.{read_file, …}`), since the model has its
   * description and input schema already; a program calls it with the same input.
   */
  direct?: boolean;
}

/** The declarations, and the real tool name of each function a program calls (`github.create_issue`). */
export interface Declarations {
  text: string;
  functions: ReadonlyMap<string, string>;
}

/** Longest type text one schema becomes; beyond it the type is `any`, with a note. */
const MAX_TYPE_CHARS = 2_000;
/** Nesting a schema is followed to; deeper parts are `any`. */
const MAX_DEPTH = 6;
/** The first line of a description kept as a tool's doc comment. */
const MAX_DOC_CHARS = 300;

/**
 * Declarations for `tools`, at most `maxChars` of text (the tools that do not fit are named in a
 * comment). Tools marked `direct` are only named: listed, or, when shorter, said to be all the
 * model's tools but `notCallable` (the tools it is offered that a program cannot call).
 */
export function declareTools(
  tools: readonly DeclaredTool[],
  maxChars: number,
  notCallable: readonly string[] = [],
): Declarations {
  const functions = new Map<string, string>();
  const groups = new Map<string, string[]>();
  const named = new Map<string, string[]>();
  const renamed: string[] = [];
  const left: string[] = [];
  let example: string | undefined;
  let size = 0;
  for (const tool of tools) {
    const namespace = tool.namespace !== undefined ? identifier(tool.namespace) : undefined;
    const bare =
      tool.prefix && tool.name.startsWith(`${tool.prefix}_`)
        ? tool.name.slice(tool.prefix.length + 1)
        : tool.name;
    const inner = freeName(identifier(bare), (candidate) => functions.has(qualified(namespace, candidate)));
    const text = tool.direct
      ? inner === bare
        ? inner
        : `${inner} (the tool "${tool.name}")`
      : declareFunction(tool, inner);
    if (size + text.length > maxChars) {
      left.push(tool.name);
      continue;
    }
    size += text.length;
    const call = qualified(namespace, inner);
    functions.set(call, tool.name);
    if (tool.direct) {
      const byRule =
        namespace !== undefined && namespace === tool.prefix ? `${namespace}.${bare}` : tool.name;
      if (call !== byRule) renamed.push(`${tool.name} is tools.${call}`);
      else if (call !== tool.name) example ??= `tools.${call}(input) is ${tool.name}`;
    }
    const into = tool.direct ? named : groups;
    const group = into.get(namespace ?? "") ?? [];
    group.push(text);
    into.set(namespace ?? "", group);
  }
  const lines: string[] = [];
  if (named.size > 0) lines.push(namedTools({ named, notCallable, renamed, example }));
  if (groups.size > 0) {
    lines.push("declare namespace tools {");
    for (const text of groups.get("") ?? []) lines.push(indent(text, 1));
    for (const [namespace, texts] of groups) {
      if (namespace === "") continue;
      lines.push(`  namespace ${namespace} {`);
      for (const text of texts) lines.push(indent(text, 2));
      lines.push("  }");
    }
    lines.push("}");
  }
  if (left.length > 0)
    lines.push(`// Not declared (over the size limit), callable directly only: ${left.join(", ")}`);
  return { text: lines.join("\n"), functions };
}

/**
 * The tools the model is offered directly that a program may call too: their names, or, when
 * shorter, the rule (`tools.<server>.<tool>`) with the exceptions and the tools it does not name.
 */
function namedTools(parts: {
  named: ReadonlyMap<string, string[]>;
  notCallable: readonly string[];
  renamed: readonly string[];
  example: string | undefined;
}): string {
  const { named, notCallable, renamed, example } = parts;
  const lists = [...named].map(([namespace, names]) =>
    namespace === "" ? names.join(", ") : `${namespace}.{${names.join(", ")}}`,
  );
  const listed = `Your tools as functions (${example ? `${example}, ` : ""}same input): ${lists.join("; ")}.`;
  const rule = example ?? "tools.<name>";
  const ruled =
    `Your tools are functions too (${rule}), same input` +
    (notCallable.length > 0 ? `, except ${notCallable.join(", ")}` : "") +
    (renamed.length > 0 ? `; ${renamed.join(", ")}` : "") +
    ".";
  return ruled.length < listed.length ? ruled : listed;
}

function qualified(namespace: string | undefined, name: string): string {
  return namespace === undefined ? name : `${namespace}.${name}`;
}

function declareFunction(tool: DeclaredTool, name: string): string {
  const doc = firstLine(tool.description);
  const original = name === tool.name ? "" : `${doc ? " " : ""}(the tool "${tool.name}")`;
  const comment = doc || original ? `/** ${escapeComment(doc + original)} */\n` : "";
  const input = boundedType(tool.inputSchema);
  const output = tool.outputSchema ? boundedType(tool.outputSchema) : "string";
  return `${comment}function ${name}(input: ${input}): Promise<${output}>;`;
}

function boundedType(schema: JSONSchema): string {
  const text = typeOf(schema, 0);
  return text.length <= MAX_TYPE_CHARS ? text : "any /* schema too large to declare */";
}

/** A JSON Schema as a TypeScript type; what it cannot say is `any`. */
export function typeOf(schema: unknown, depth: number): string {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema))
    return schema === false ? "never" : "any";
  if (depth > MAX_DEPTH) return "any";
  const s = schema as Record<string, unknown>;
  if ("const" in s) return literal(s.const);
  if (Array.isArray(s.enum)) return s.enum.length > 0 ? s.enum.map(literal).join(" | ") : "never";
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = s[key];
    if (Array.isArray(options) && options.length > 0)
      return union(options.map((option) => typeOf(option, depth + 1)));
  }
  if (Array.isArray(s.allOf) && s.allOf.length > 0)
    return s.allOf.map((part) => paren(typeOf(part, depth + 1))).join(" & ");
  const type = s.type;
  if (Array.isArray(type)) return union(type.map((one) => typeOf({ ...s, type: one }, depth)));
  switch (type) {
    case "string":
      return "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array":
      return `${paren(typeOf(s.items ?? {}, depth + 1))}[]`;
    case "object":
      return objectType(s, depth);
    default:
      return typeof s.properties === "object" && s.properties !== null ? objectType(s, depth) : "any";
  }
}

function objectType(s: Record<string, unknown>, depth: number): string {
  const properties =
    typeof s.properties === "object" && s.properties !== null
      ? (s.properties as Record<string, unknown>)
      : {};
  const required = new Set(
    Array.isArray(s.required) ? s.required.filter((name) => typeof name === "string") : [],
  );
  const fields = Object.entries(properties).map(([name, property]) => {
    const key = /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
    const doc =
      typeof property === "object" && property !== null
        ? firstLine((property as { description?: unknown }).description, 80)
        : "";
    return `${doc ? `/** ${escapeComment(doc)} */ ` : ""}${key}${required.has(name) ? "" : "?"}: ${typeOf(property, depth + 1)}`;
  });
  const extra = s.additionalProperties;
  if (fields.length === 0)
    return extra === false
      ? "{}"
      : `Record<string, ${typeof extra === "object" ? typeOf(extra, depth + 1) : "any"}>`;
  if (typeof extra === "object" && extra !== null) fields.push(`[key: string]: ${typeOf(extra, depth + 1)}`);
  return `{ ${fields.join("; ")} }`;
}

function union(types: string[]): string {
  const unique = [...new Set(types)];
  return unique.includes("any") ? "any" : unique.join(" | ");
}

function paren(type: string): string {
  return /[|&]/.test(type) ? `(${type})` : type;
}

function literal(value: unknown): string {
  return value === undefined ? "undefined" : (JSON.stringify(value) ?? "any");
}

function firstLine(text: unknown, max = MAX_DOC_CHARS): string {
  if (typeof text !== "string") return "";
  const line = text.trim().split("\n")[0]?.trim() ?? "";
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

function escapeComment(text: string): string {
  return text.replaceAll("*/", "*\\/");
}

/** A name as a JavaScript identifier: other characters become `_`, a leading digit gets one. */
export function identifier(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_$]/g, "_");
  const safe = /^[0-9]/.test(cleaned) || cleaned === "" ? `_${cleaned}` : cleaned;
  return RESERVED.has(safe) ? `${safe}_` : safe;
}

function freeName(name: string, taken: (candidate: string) => boolean): string {
  if (!taken(name)) return name;
  let suffix = 2;
  while (taken(`${name}_${suffix}`)) suffix++;
  return `${name}_${suffix}`;
}

function indent(text: string, level: number): string {
  const pad = "  ".repeat(level);
  return text
    .split("\n")
    .map((line) => pad + line)
    .join("\n");
}

const RESERVED = new Set(
  "break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package private protected public await __proto__ constructor prototype".split(
    " ",
  ),
);
