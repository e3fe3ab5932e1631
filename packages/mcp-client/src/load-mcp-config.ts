import { errorMessage, JunctionError } from "@junction/types";
import type { MCPConfig } from "./mcp-config.js";
import { reportWarning } from "./mcp-warning.js";

type Environment = Record<string, string | undefined>;

/** One `${VAR}` that {@link loadMCPConfig} replaced, as {@link LoadMCPConfigOptions.onSubstitution} sees it. */
export interface MCPConfigSubstitution {
  /** The entry's key in `mcpServers` / `servers`. */
  server: string;
  /** Where it was replaced, for example `args[1]` or `headers.Authorization`. */
  field: string;
  /** The variable's name, without `env:`. */
  variable: string;
  /** The value put in its place. */
  value: string;
}

/**
 * A key of an entry that {@link loadMCPConfig} does not read (a typo such as `"arg"`, or another
 * host's setting such as `"disabled"`), as {@link LoadMCPConfigOptions.onWarning} sees it.
 */
export interface MCPConfigWarning {
  code: "mcp-config-unknown-key";
  /** The entry's key in `mcpServers` / `servers`. */
  server: string;
  /** The key that is not read. */
  key: string;
  /** The key it probably meant, when one is close (`args` for `arg`). */
  suggestion?: string;
  /** Says all of the above, for a log line. */
  message: string;
}

/** Options of {@link loadMCPConfig}. */
export interface LoadMCPConfigOptions {
  /**
   * Make a key an entry does not use an error (`mcp-config-invalid`, listing every such key with
   * a "did you mean" suggestion) instead of a warning.
   * @default false
   */
  strict?: boolean;
  /**
   * Receives each unknown key of an entry when not `strict`. Without it, each is emitted as a
   * Node.js process warning (`process.emitWarning`, type `JunctionConfigWarning`), so a typo is
   * never silent.
   */
  onWarning?: (warning: MCPConfigWarning) => void;
  /**
   * Called for every `${VAR}` replaced, with the value put in: a caller that expands variables
   * it did not choose (a config pasted into an app) can redact these values from errors and logs.
   */
  onSubstitution?: (substitution: MCPConfigSubstitution) => void;
  /**
   * The words after "… uses ${VAR} but" when a variable is not in `env`.
   * @default `${variable} is not set in the environment`
   * @example
   * ```ts
   * // an app that expands only variables the person allowed says the same for both cases,
   * // so an error does not reveal which variables exist
   * { unresolvedVariable: (name) => `${name} is not set or not allowed` }
   * ```
   */
  unresolvedVariable?: (variable: string) => string;
}

/**
 * Reads the `mcpServers` JSON that Claude Desktop and Cursor use, or VS Code's `servers`
 * (`mcp.json`, comments allowed), synchronously, from a file path or an already parsed object.
 *
 * - `${VAR}` and `${env:VAR}` are replaced from the environment in `command`, `args`, `env`,
 *   `cwd`, `url` and `headers`; an unset variable is an error naming the entry and field.
 * - `type` may be `stdio`, `http`, `streamable-http` or `sse`; an entry with a `command` and no
 *   type is stdio; a `url` without a type is Streamable HTTP with fallback to legacy SSE.
 * - Each entry's key becomes its `name`.
 * - A key an entry does not use (`"arg"` for `"args"`, `"comand"`, another host's `"disabled"`)
 *   is reported with a "did you mean" suggestion: a warning (`onWarning`, else a process
 *   warning), or with `strict: true` an error.
 *
 * @param env - the variables `${VAR}` may name, instead of `process.env` (only these are read).
 *   An app loading a config it did not write (pasted or imported by a user) should pass only the
 *   variables the person allowed, never the whole environment with its API keys.
 * @param options - {@link LoadMCPConfigOptions}: strict mode and warnings for unknown keys, see
 *   each value substituted, word the error for a variable that is not in `env`.
 *
 * @example
 * ```ts
 * const configs = loadMCPConfig(`${process.env.HOME}/.cursor/mcp.json`);
 * const { connected } = await connectAll(configs);
 * ```
 * @example
 * ```ts
 * // expand only GITHUB_TOKEN, and learn its value to keep it out of what the page shows
 * const secrets: string[] = [];
 * const configs = loadMCPConfig(pasted, { GITHUB_TOKEN: process.env.GITHUB_TOKEN }, {
 *   onSubstitution: ({ value }) => secrets.push(value),
 * });
 * ```
 */
export function loadMCPConfig(
  fileOrObject: string | object,
  env?: Environment,
  options: LoadMCPConfigOptions = {},
): Record<string, MCPConfig> {
  const environment = env ?? (globalThis as { process?: { env?: Environment } }).process?.env ?? {};
  const source = typeof fileOrObject === "string" ? readConfigFile(fileOrObject) : fileOrObject;
  const where = typeof fileOrObject === "string" ? ` in ${fileOrObject}` : "";
  if (!isRecord(source)) throw invalid(`MCP config${where} is not a JSON object`);
  const servers = source.mcpServers ?? source.servers;
  if (!isRecord(servers)) {
    throw invalid(
      `MCP config${where} has no "mcpServers" (Claude Desktop, Cursor) or "servers" (VS Code) object`,
    );
  }
  const configs: Record<string, MCPConfig> = {};
  for (const [name, entry] of Object.entries(servers)) {
    configs[name] = parseEntry(name, entry, { env: environment, options, where });
  }
  return configs;
}

interface Resolver {
  env: Environment;
  options: LoadMCPConfigOptions;
  /** Where the entries come from, as error messages say it (such as ` in ./mcp.json`). */
  where: string;
}

/** Unknown keys of an entry: refused when `strict`, else each ignored with a warning. */
function reportUnknownKeys(
  name: string,
  unknown: ReturnType<typeof unknownKeys>,
  { where, options }: Resolver,
): void {
  if (unknown.length > 0 && options.strict) {
    const keys = unknown.map(({ key, suggestion }) => `${JSON.stringify(key)}${didYouMean(suggestion)}`);
    throw invalid(
      `MCP server "${name}"${where}: unknown key${keys.length === 1 ? "" : "s"} ${keys.join(", ")}`,
    );
  }
  if (options.strict) return;
  for (const { key, suggestion } of unknown) {
    warn(options, {
      code: "mcp-config-unknown-key",
      server: name,
      key,
      ...(suggestion === undefined ? {} : { suggestion }),
      message: `MCP server "${name}"${where}: unknown key ${JSON.stringify(key)} is ignored${didYouMean(suggestion)}`,
    });
  }
}

function parseEntry(name: string, entry: unknown, resolver: Resolver): MCPConfig {
  const { where } = resolver;
  const fail = (field: string, problem: string) =>
    invalid(`MCP server "${name}"${where}: ${field} ${problem}`);
  if (!isRecord(entry)) throw fail("entry", "is not an object");
  const unknown = unknownKeys(entry);
  reportUnknownKeys(name, unknown, resolver);
  const text = (field: string, value: unknown): string => {
    if (typeof value !== "string") throw fail(field, "must be a string");
    return substitute(value, { server: name, field, fail }, resolver);
  };
  const record = (field: string, value: unknown): Record<string, string> | undefined => {
    if (value === undefined) return undefined;
    if (!isRecord(value)) throw fail(field, "must be an object of strings");
    const result: Record<string, string> = {};
    for (const [key, item] of Object.entries(value)) {
      if (typeof item !== "string" && typeof item !== "number" && typeof item !== "boolean") {
        throw fail(`${field}.${key}`, "must be a string");
      }
      result[key] = substitute(String(item), { server: name, field: `${field}.${key}`, fail }, resolver);
    }
    return result;
  };
  const type = entry.type;
  if (type !== undefined && typeof type !== "string") throw fail("type", "must be a string");
  const kind = type ?? (entry.command !== undefined ? "stdio" : entry.url !== undefined ? "url" : undefined);
  switch (kind) {
    case "stdio": {
      if (entry.command === undefined) throw fail("command", "is missing (a stdio server needs one)");
      const command = text("command", entry.command);
      if (command.trim() === "") throw fail("command", "is empty");
      const config: MCPConfig = { transport: "stdio", name, command };
      if (entry.args !== undefined) {
        if (!Array.isArray(entry.args)) throw fail("args", "must be an array of strings");
        config.args = entry.args.map((arg, index) =>
          text(`args[${index}]`, typeof arg === "number" ? String(arg) : arg),
        );
      }
      const environment = record("env", entry.env);
      if (environment) config.env = environment;
      if (entry.cwd !== undefined) config.cwd = text("cwd", entry.cwd);
      return config;
    }
    case "url":
    case "http":
    case "streamable-http":
    case "sse": {
      if (entry.url === undefined)
        throw fail("url", `is missing (a ${kind === "url" ? "remote" : kind} server needs one)`);
      const url = text("url", entry.url);
      try {
        new URL(url);
      } catch {
        throw fail("url", "is not a valid URL");
      }
      const headers = record("headers", entry.headers);
      if (kind === "sse") return { transport: "sse", name, url, ...(headers ? { headers } : {}) };
      return { transport: "http", name, url, ...(headers ? { headers } : {}), sseFallback: kind === "url" };
    }
    case undefined: {
      const hint = unknown.find(({ suggestion }) => suggestion === "command" || suggestion === "url");
      throw fail(
        "entry",
        `has neither "command" nor "url"${hint ? ` (did you mean "${hint.suggestion}" for ${JSON.stringify(hint.key)}?)` : ""}`,
      );
    }
    default:
      throw fail("type", `${JSON.stringify(kind)} is not one of stdio, http, streamable-http, sse`);
  }
}

/** Every key an entry may have; which apply depends on the entry's kind (stdio or remote). */
const ENTRY_KEYS = ["type", "command", "args", "env", "cwd", "url", "headers"] as const;

/** The keys of an entry that are read by no kind of server, each with its likely intent. */
function unknownKeys(entry: Record<string, unknown>): { key: string; suggestion?: string }[] {
  return Object.keys(entry)
    .filter((key) => !(ENTRY_KEYS as readonly string[]).includes(key))
    .map((key) => {
      const suggestion = closestKey(key);
      return suggestion === undefined ? { key } : { key, suggestion };
    });
}

function didYouMean(suggestion: string | undefined): string {
  return suggestion === undefined ? "" : ` (did you mean "${suggestion}"?)`;
}

/** The known key a typo most likely meant: same letters in another case, or at most two edits away. */
function closestKey(key: string): string | undefined {
  let best: { key: string; distance: number } | undefined;
  for (const known of ENTRY_KEYS) {
    const distance = known.toLowerCase() === key.toLowerCase() ? 0 : editDistance(key.toLowerCase(), known);
    if (distance <= 2 && distance < known.length / 2 && (!best || distance < best.distance))
      best = { key: known, distance };
  }
  return best?.key;
}

/** Levenshtein distance, for the short keys of a config entry. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

function warn(options: LoadMCPConfigOptions, warning: MCPConfigWarning): void {
  reportWarning(warning, options.onWarning, "JunctionConfigWarning");
}

/** Replaces `${VAR}` and `${env:VAR}`; anything else in `${…}` (VS Code's `${input:…}`) is an error. */
function substitute(
  value: string,
  at: { server: string; field: string; fail: (field: string, problem: string) => JunctionError },
  { env, options }: Resolver,
): string {
  const { server, field, fail } = at;
  return value.replace(/\$\{([^}]*)\}/g, (_match, expression: string) => {
    const variable = expression.startsWith("env:") ? expression.slice(4) : expression;
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(variable)) {
      throw fail(
        field,
        `uses \${${expression}}, which loadMCPConfig cannot resolve (only \${VAR} and \${env:VAR})`,
      );
    }
    const resolved = Object.hasOwn(env, variable) ? env[variable] : undefined;
    if (resolved === undefined) {
      const problem = options.unresolvedVariable?.(variable) ?? `${variable} is not set in the environment`;
      throw fail(field, `uses \${${expression}} but ${problem}`);
    }
    options.onSubstitution?.({ server, field, variable, value: resolved });
    return resolved;
  });
}

function readConfigFile(path: string): unknown {
  const fs = (
    globalThis as {
      process?: {
        getBuiltinModule?: (id: string) => { readFileSync(path: string, encoding: string): string };
      };
    }
  ).process?.getBuiltinModule?.("node:fs");
  if (!fs) {
    throw invalid(
      `loadMCPConfig("${path}"): reading files needs Node.js 22+; pass the parsed object instead`,
    );
  }
  let text: string;
  try {
    text = fs.readFileSync(path, "utf8");
  } catch (error) {
    throw new JunctionError(
      "mcp-config-invalid",
      `could not read MCP config ${path}: ${errorMessage(error)}`,
      {
        cause: error,
      },
    );
  }
  try {
    return JSON.parse(stripJsonComments(text));
  } catch (error) {
    throw new JunctionError(
      "mcp-config-invalid",
      `MCP config ${path} is not valid JSON: ${errorMessage(error)}`,
      {
        cause: error,
      },
    );
  }
}

/** VS Code's mcp.json is JSONC: drop comments and trailing commas outside strings. */
export function stripJsonComments(text: string): string {
  let out = "";
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    const next = text[i + 1];
    if (inString) {
      out += char;
      if (char === "\\") {
        out += next ?? "";
        i++;
      } else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') {
      inString = true;
      out += char;
    } else if (char === "/" && next === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      out += "\n";
    } else if (char === "/" && next === "*") {
      i += 2;
      while (i < text.length && !(text[i] === "*" && text[i + 1] === "/")) i++;
      i++;
    } else if (char === ",") {
      let j = i + 1;
      while (j < text.length && /\s/.test(text[j] ?? "")) j++;
      if (text[j] !== "}" && text[j] !== "]") out += char;
    } else out += char;
  }
  return out;
}

function invalid(message: string): JunctionError {
  return new JunctionError("mcp-config-invalid", message);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
