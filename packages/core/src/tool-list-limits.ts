import { type JSONSchema, JunctionError, type Tool, type Warning } from "@junction/types";
import { jsonLimitProblem, MAX_TOOL_OUTPUT_DEPTH } from "./json-limits.js";

/**
 * Bounds on the tool list an Agent offers the model on each request: what one MCP server (or
 * a runaway local setup) lists cannot make every request huge. What goes over is cut or left
 * out, each with a `warning` naming the tool and the limit, once per tool per Agent. The count
 * bounds what one request offers, not what the tool search finds: with the search on, the tools
 * over the count stay searchable.
 */
export interface ToolLimits {
  /**
   * Tools offered on one model request. Local tools come first; the rest is shared fairly
   * among the MCP sources (a source listing fewer than its share keeps all of them, the others
   * keep their first tools), so one server listing thousands cannot crowd out the others.
   * Junction's own tools (`search_tools`, `read_tool_result`) count too: on a request where they
   * would go over, the last of the other tools make room. The tools over it are found with the
   * tool search (`search_tools`); with `toolSearch: { mode: "off" }` they are left out (and
   * cannot be called).
   * @default 256
   */
  maxTools?: number;
  /**
   * Characters of a tool's name (with its prefix); a longer name leaves the tool out. MCP
   * advises names of at most 128 characters.
   * @default 256
   */
  maxNameChars?: number;
  /**
   * Characters of a tool's description; a longer one is cut, ending in "… [cut by Junction]".
   * @default 10000
   */
  maxDescriptionChars?: number;
  /**
   * Characters of a tool's input schema as JSON (nested at most 100 levels); a larger or
   * deeper one leaves the tool out. An output schema over it is left out of the definition.
   * @default 100000
   */
  maxSchemaChars?: number;
}

/** The limits an Agent uses where {@link ToolLimits} leaves one out. */
export const DEFAULT_TOOL_LIMITS: Readonly<Required<ToolLimits>> = Object.freeze({
  maxTools: 256,
  maxNameChars: 256,
  maxDescriptionChars: 10_000,
  maxSchemaChars: 100_000,
});

/** `limits` completed with the defaults, each checked to be a positive integer (or `Infinity`). */
export function resolveToolLimits(limits: ToolLimits | undefined): Required<ToolLimits> {
  if (limits !== undefined && (typeof limits !== "object" || limits === null)) {
    throw new JunctionError("invalid-argument", "new Agent(): `toolLimits` must be an object.");
  }
  const resolved = { ...DEFAULT_TOOL_LIMITS };
  for (const key of Object.keys(DEFAULT_TOOL_LIMITS) as (keyof ToolLimits)[]) {
    const value = limits?.[key];
    if (value === undefined) continue;
    if (value !== Number.POSITIVE_INFINITY && (!Number.isInteger(value) || value < 1)) {
      throw new JunctionError(
        "invalid-argument",
        `new Agent(): \`toolLimits.${key}\` must be a positive integer (or Infinity for no limit), got ${String(value)}.`,
      );
    }
    resolved[key] = value;
  }
  return resolved;
}

/** The tools of one origin: the local tools (no label) or one MCP source. */
export interface ToolGroup<T extends { name: string } = Tool> {
  /** The source's label, for example `MCP source "github"`; absent for local tools. */
  label?: string;
  tools: T[];
}

/** A tool that stays, with what the model is told about it. */
export interface KeptTool {
  tool: Tool;
  /** The description to send: the tool's own, or cut to the limit. */
  description: string;
  /** Whether the output schema was left out for its size. */
  outputSchemaDropped: boolean;
}

/** A warning, with a key that stays the same for the same tool and limit (to warn once). */
export interface ToolLimitWarning {
  key: string;
  warning: Warning;
}

const CUT_MARK = "… [cut by Junction]";
/** How many dropped tools one count warning names. */
const NAMED_IN_COUNT_WARNING = 10;

/**
 * Applies the per-tool `limits` (name, schema and description size) to every tool of the groups:
 * what is over is cut or left out, so no request can carry it, whatever the search loads.
 * Returns the kept tools per group, in the groups' order, and one warning per tool cut or left
 * out. The count (`maxTools`) is {@link limitToolCount}'s, per request. Pure; costs at most
 * about `maxSchemaChars` steps per tool.
 */
export function limitToolList(
  groups: ToolGroup[],
  limits: Required<ToolLimits>,
): { kept: KeptTool[][]; warnings: ToolLimitWarning[] } {
  const warnings: ToolLimitWarning[] = [];
  const kept = groups.map((group) => {
    const result: KeptTool[] = [];
    for (const tool of group.tools) {
      const checked = checkTool(tool, group, { limits, warnings });
      if (checked) result.push(checked);
    }
    return result;
  });
  return { kept, warnings };
}

/**
 * What one request offers at most `maxTools` of: local tools first, then a fair share per
 * source (water-filling: a source with fewer than its share keeps all, the others their first
 * tools). Returns what each group keeps and what is over, with one warning per group cut:
 * `overflow` says what becomes of the tools over the count, `"searchable"` (the tool search
 * finds them) or `"left-out"` (no search: they are not offered at all). Pure.
 */
export function limitToolCount<T extends { name: string }>(
  groups: ToolGroup<T>[],
  maxTools: number,
  overflow: "searchable" | "left-out",
): { kept: T[][]; over: T[][]; warnings: ToolLimitWarning[] } {
  const warnings: ToolLimitWarning[] = [];
  // Over-the-limit tools stay searchable through `search_tools`, which takes one of the places.
  const places = overflow === "searchable" ? maxTools - 1 : maxTools;
  const shares = fairShares(groups, places);
  const kept = groups.map((group, index) => {
    const share = shares[index]!;
    if (share < group.tools.length) warnings.push(countWarning(group, share, { maxTools, overflow }));
    return group.tools.slice(0, share);
  });
  const over = groups.map((group, index) => group.tools.slice(shares[index]!));
  return { kept, over, warnings };
}

/** How many tools each group keeps: local ones first, then water-filling over the sources. */
function fairShares(groups: ToolGroup<{ name: string }>[], maxTools: number): number[] {
  const shares = groups.map(() => 0);
  let remaining = maxTools;
  groups.forEach((group, index) => {
    if (group.label !== undefined) return;
    shares[index] = Math.min(group.tools.length, remaining);
    remaining -= shares[index]!;
  });
  const sources = groups
    .map((group, index) => ({ index, count: group.tools.length }))
    .filter(({ index }) => groups[index]!.label !== undefined)
    .sort((a, b) => a.count - b.count);
  sources.forEach(({ index, count }, position) => {
    const share = Math.min(count, Math.floor(remaining / (sources.length - position)));
    shares[index] = share;
    remaining -= share;
  });
  return shares;
}

function checkTool(
  tool: Tool,
  group: ToolGroup,
  { limits, warnings }: { limits: Required<ToolLimits>; warnings: ToolLimitWarning[] },
): KeptTool | undefined {
  const where = group.label ?? "the local tools";
  const name = shown(tool.name);
  if (tool.name.length > limits.maxNameChars) {
    warnings.push({
      key: `tool-name-too-long\0${keyOf(tool.name)}`,
      warning: {
        code: "tool-name-too-long",
        message: `${capitalized(where)} has a tool named ${name}: ${tool.name.length} characters, over toolLimits.maxNameChars (${limits.maxNameChars}); the tool was left out.`,
      },
    });
    return undefined;
  }
  const schemaProblem = schemaLimitProblem(tool.inputSchema, limits.maxSchemaChars);
  if (schemaProblem) {
    warnings.push({
      key: `tool-schema-too-large\0${tool.name}`,
      warning: {
        code: "tool-schema-too-large",
        message: `The input schema of tool ${name} from ${where} ${schemaProblem} (toolLimits.maxSchemaChars is ${limits.maxSchemaChars}); the tool was left out.`,
      },
    });
    return undefined;
  }
  const outputProblem =
    tool.outputSchema === undefined
      ? undefined
      : schemaLimitProblem(tool.outputSchema, limits.maxSchemaChars);
  if (outputProblem) {
    warnings.push({
      key: `tool-output-schema-too-large\0${tool.name}`,
      warning: {
        code: "tool-schema-too-large",
        message: `The output schema of tool ${name} from ${where} ${outputProblem} (toolLimits.maxSchemaChars is ${limits.maxSchemaChars}); it was left out of the tool's definition.`,
      },
    });
  }
  let description = typeof tool.description === "string" ? tool.description : "";
  if (description.length > limits.maxDescriptionChars) {
    warnings.push({
      key: `tool-description-cut\0${tool.name}`,
      warning: {
        code: "tool-description-cut",
        message: `The description of tool ${name} from ${where} has ${description.length} characters, over toolLimits.maxDescriptionChars (${limits.maxDescriptionChars}); it was cut to that length.`,
      },
    });
    description = description.slice(0, limits.maxDescriptionChars) + CUT_MARK;
  }
  return { tool, description, outputSchemaDropped: outputProblem !== undefined };
}

function schemaLimitProblem(schema: JSONSchema | undefined, maxChars: number): string | undefined {
  if (typeof schema !== "object" || schema === null) return undefined;
  const problem = jsonLimitProblem(schema, { maxDepth: MAX_TOOL_OUTPUT_DEPTH, maxChars });
  // jsonLimitProblem words it about "it": "it is nested …", "its JSON is over …", "it holds …".
  return problem?.replace(/^its JSON is over/, "has JSON over").replace(/^it /, "");
}

function countWarning(
  group: ToolGroup<{ name: string }>,
  share: number,
  { maxTools, overflow }: { maxTools: number; overflow: "searchable" | "left-out" },
): ToolLimitWarning {
  const dropped = group.tools.slice(share);
  const named = dropped
    .slice(0, NAMED_IN_COUNT_WARNING)
    .map((tool) => shown(tool.name))
    .join(", ");
  const more =
    dropped.length > NAMED_IN_COUNT_WARNING ? ` and ${dropped.length - NAMED_IN_COUNT_WARNING} more` : "";
  const where = group.label ?? "The local tools";
  const message =
    overflow === "left-out"
      ? `${capitalized(where)} listed ${group.tools.length} tools; with toolLimits.maxTools (${maxTools}) shared among the sources, ` +
        `the model is offered its first ${share}. Left out: ${named}${more}.`
      : `${capitalized(where)} has ${group.tools.length} tools to offer on one request; with toolLimits.maxTools (${maxTools}) shared among the sources and search_tools, ` +
        `the model is offered its first ${share} and finds the other ${dropped.length} with the tool search: ${named}${more}.`;
  return {
    key: `tool-list-truncated\0${overflow}\0${group.label ?? ""}\0${group.tools.length}\0${share}`,
    warning: { code: "tool-list-truncated", message },
  };
}

/** A tool name as a warning shows it: quoted, and cut when a server made it huge. */
function shown(name: string): string {
  return JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name);
}

function keyOf(name: string): string {
  return `${name.slice(0, 256)}\0${name.length}`;
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
