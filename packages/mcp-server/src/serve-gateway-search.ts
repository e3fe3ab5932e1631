import type { ToolSearchResult } from "@junction/core";
import {
  SEARCH_TOOLS,
  type SearchableTool,
  searchRequestOf,
  searchRequestSchema,
  ToolIndex,
  toolSearchFit,
  toolSearchResult,
} from "@junction/core";
import type { JSONSchema } from "@junction/types";
import type { CallToolResult, McpServer, ToolAnnotations } from "@modelcontextprotocol/server";
import type { GatewayToolHandler } from "./serve-gateway-tool.js";
import { passthroughSchema, type ServedToolDefinition } from "./serve-tool.js";

/** The name of the gateway's search tool. */
export const GATEWAY_SEARCH_TOOLS = SEARCH_TOOLS;
/** The name of the gateway's tool that calls what a search found. */
export const GATEWAY_CALL_TOOL = "call_tool";

/**
 * The default `toolSearch.threshold`: a gateway re-serving more tools than this lists
 * `search_tools` and `call_tool` in their place. Clients send every listed tool to their model on
 * every turn; core's per-request bound (`toolLimits.maxTools`, 256) is far past where that
 * costs context and picks get worse.
 */
export const DEFAULT_GATEWAY_SEARCH_THRESHOLD = 50;

/** One upstream tool as the gateway's search finds and calls it. */
export interface GatewaySearchEntry {
  definition: ServedToolDefinition;
  /** The prefix of its connection, searched as its source. */
  source?: string;
  /** The tool as its connection listed it: the index is rebuilt when these change. */
  listed: object;
  handler: GatewayToolHandler;
}

/** One tool a gateway search found, with what a client needs to call it through `call_tool`. */
export interface GatewaySearchMatch extends ToolSearchResult {
  title?: string;
  description: string;
  inputSchema: JSONSchema;
  annotations?: ToolAnnotations;
}

/** The `structuredContent` of a gateway's `search_tools` result. */
export interface GatewaySearchOutput {
  query: string;
  /** The tools offered, best first: all found when something fits well, else the closest few or none. */
  matches: GatewaySearchMatch[];
  /** Whether no tool fits the query well (then `matches` holds at most the 3 closest, or none). */
  nothingFits: boolean;
}

const READ_ONLY: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };

/** The index over a gateway's tools, kept while the upstream lists are the same objects. */
export class GatewaySearchIndex {
  #tools: readonly GatewaySearchEntry[] = [];
  #index: ToolIndex | undefined;

  /** The index for `tools`: built once, and again only when an upstream list changed. */
  indexFor(tools: readonly GatewaySearchEntry[]): ToolIndex {
    const same =
      this.#index !== undefined &&
      tools.length === this.#tools.length &&
      tools.every((tool, order) => tool.listed === this.#tools[order]!.listed);
    if (!same || !this.#index) {
      this.#tools = tools;
      this.#index = new ToolIndex(tools.map(searchableOf));
    }
    return this.#index;
  }
}

/**
 * Registers `search_tools` (core's BM25 index and ranking over the re-served tools: each match's
 * name, description, input schema and how well it fits) and `call_tool` (`{ name, arguments }`:
 * the named re-served tool's own handler, so the call is the same as a direct one: arguments go
 * upstream unchanged, progress, cancellation and pass-through kept).
 */
export function registerGatewaySearch(
  server: McpServer,
  parts: {
    tools: readonly GatewaySearchEntry[];
    index: ToolIndex;
    maxResults: number;
    local: ReadonlySet<string>;
  },
): void {
  const byName = new Map(parts.tools.map((tool) => [tool.definition.name, tool]));
  registerSearch(server, { ...parts, byName });
  registerCall(server, { byName, local: parts.local });
}

type GatewayTools = ReadonlyMap<string, GatewaySearchEntry>;

/** `search_tools`: the index's ranking, each match with what it takes to call it. */
function registerSearch(
  server: McpServer,
  parts: { tools: readonly GatewaySearchEntry[]; index: ToolIndex; maxResults: number; byName: GatewayTools },
): void {
  const { tools, index, maxResults, byName } = parts;
  server.registerTool(
    GATEWAY_SEARCH_TOOLS,
    {
      description:
        `Searches the ${tools.length} tools of this gateway by what you want to do (words of their names, descriptions, ` +
        `parameters and servers). Each match comes with its name, description, input schema and how well it fits ` +
        `(high, medium or low); call one with ${GATEWAY_CALL_TOOL}. When nothing fits well, the answer says so and ` +
        "gives at most the few closest tools, or none: search again in other words.",
      inputSchema: passthroughSchema(
        searchRequestSchema({ maxResults, limit: "How many tools to return at most" }),
      ),
      annotations: READ_ONLY,
    },
    async (args: unknown): Promise<CallToolResult> => {
      const request = searchRequestOf(args, { tool: GATEWAY_SEARCH_TOOLS, maxResults });
      if ("error" in request) return errorResult(request.error);
      const { query: said, limit: count } = request;
      const { nothingFits, offered } = toolSearchFit(index.search(said, count), { catalogSize: index.size });
      const output: GatewaySearchOutput = {
        query: said,
        matches: offered.map((hit) => {
          const definition = byName.get(hit.definition.name)!.definition;
          return {
            ...toolSearchResult(hit),
            ...(definition.title === undefined ? {} : { title: definition.title }),
            description: definition.description,
            inputSchema: definition.inputSchema,
            ...(definition.annotations ? { annotations: definition.annotations } : {}),
          };
        }),
        nothingFits,
      };
      return {
        content: [{ type: "text", text: searchAnswer(output) }],
        structuredContent: output as unknown as Record<string, unknown>,
      };
    },
  );
}

/** `call_tool`: the named re-served tool's own handler, its arguments unchanged. */
function registerCall(server: McpServer, parts: { byName: GatewayTools; local: ReadonlySet<string> }): void {
  const { byName } = parts;
  server.registerTool(
    GATEWAY_CALL_TOOL,
    {
      description:
        `Calls a tool that ${GATEWAY_SEARCH_TOOLS} found, by its name, with arguments that follow its input schema. ` +
        "The result is the tool's own.",
      inputSchema: passthroughSchema({
        type: "object",
        properties: {
          name: { type: "string", description: `The tool's name, as ${GATEWAY_SEARCH_TOOLS} gave it.` },
          arguments: { type: "object", description: "The tool's arguments, following its input schema." },
        },
        required: ["name"],
        additionalProperties: false,
      }),
      // What the call does is the named tool's: it may write, delete or reach anywhere.
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
    },
    async (args, context) => {
      const input = objectOf(args);
      const { name } = input;
      if (typeof name !== "string" || name.length === 0) {
        return errorResult(
          `${GATEWAY_CALL_TOOL} needs {"name": the name of a tool ${GATEWAY_SEARCH_TOOLS} found, "arguments": an object}.`,
        );
      }
      const target = byName.get(name);
      if (!target) {
        const own = parts.local.has(name) || name === GATEWAY_SEARCH_TOOLS || name === GATEWAY_CALL_TOOL;
        const why = own
          ? `"${name}" is not one of this gateway's re-served tools: call it directly, it is in tools/list.`
          : `No tool of this gateway is named "${name}": find one with ${GATEWAY_SEARCH_TOOLS}, and pass its name exactly.`;
        return errorResult(`${GATEWAY_CALL_TOOL}: ${why}`);
      }
      const forwarded = input.arguments ?? {};
      if (typeof forwarded !== "object" || forwarded === null || Array.isArray(forwarded)) {
        return errorResult(
          `${GATEWAY_CALL_TOOL}: "arguments" must be an object of "${name}"'s arguments, not ${describe(forwarded)}.`,
        );
      }
      const unexpected = Object.keys(input).filter((key) => key !== "name" && key !== "arguments");
      if (unexpected.length > 0) {
        return errorResult(
          `${GATEWAY_CALL_TOOL} takes {"name", "arguments"} only; put ${unexpected.map((key) => `"${key}"`).join(", ")} inside "arguments".`,
        );
      }
      return target.handler(forwarded, context);
    },
  );
}

function searchableOf(tool: GatewaySearchEntry): SearchableTool {
  const { definition } = tool;
  return {
    definition: {
      name: definition.name,
      description: definition.description,
      inputSchema: definition.inputSchema,
      ...(definition.annotations || definition.title !== undefined
        ? {
            annotations: {
              ...definition.annotations,
              ...(definition.title === undefined ? {} : { title: definition.title }),
            },
          }
        : {}),
    },
    ...(tool.source ? { source: { name: tool.source } } : {}),
  };
}

/** The text a model reads: a line saying what was found, then the matches as JSON. */
function searchAnswer(output: GatewaySearchOutput): string {
  const quoted = JSON.stringify(output.query.length > 200 ? `${output.query.slice(0, 200)}…` : output.query);
  if (output.matches.length === 0) {
    return `No tool fits ${quoted}. Search again in other words, or do without a tool.`;
  }
  const head = output.nothingFits
    ? `Nothing fits ${quoted} well. The closest ${output.matches.length} (read what each does before calling it with ${GATEWAY_CALL_TOOL}), or search again in other words:`
    : `Found ${output.matches.length} tool(s) for ${quoted}, best first; call one with ${GATEWAY_CALL_TOOL} {"name", "arguments"}:`;
  return `${head}\n${JSON.stringify(output.matches, null, 2)}`;
}

function objectOf(args: unknown): Record<string, unknown> {
  return typeof args === "object" && args !== null && !Array.isArray(args)
    ? (args as Record<string, unknown>)
    : {};
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}
