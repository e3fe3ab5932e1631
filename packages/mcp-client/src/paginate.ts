import {
  JunctionError,
  type MCPTool,
  type Prompt,
  type Resource,
  type ResourceTemplate,
} from "@junction/types";
import type { Client, RequestOptions } from "@modelcontextprotocol/client";
import { sdkClientInternals } from "./sdk-internals.js";

/** More pages than this is a server that never ends its list. */
const MAX_PAGES = 1000;

/**
 * Follows `nextCursor` to the end of a paginated MCP list. A server that returns a cursor it
 * returned before (which would loop forever) or more than a thousand pages gets an error, not
 * a hang and not a silently shortened list.
 */
export async function collectPages<T>(
  fetchPage: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string }>,
  describe: string,
): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    const result = await fetchPage(cursor);
    items.push(...result.items);
    const next = result.nextCursor;
    if (next === undefined || next === "") return items;
    if (seen.has(next)) {
      throw new JunctionError(
        "mcp-invalid-response",
        `${describe}: the server returned cursor ${JSON.stringify(next)} a second time (after ${page} pages); stopped to avoid an endless loop`,
      );
    }
    if (page >= MAX_PAGES) {
      throw new JunctionError(
        "mcp-invalid-response",
        `${describe}: the server sent more than ${MAX_PAGES} pages`,
      );
    }
    seen.add(next);
    cursor = next;
  }
}

/** The paginated MCP lists, each with the field its items come in. */
const LISTS = {
  "tools/list": "tools",
  "resources/list": "resources",
  "resources/templates/list": "resourceTemplates",
  "prompts/list": "prompts",
} as const;

/** A paginated MCP list method. */
export type ListMethod = keyof typeof LISTS;

/** The item type of each paginated list, as Junction's types name it. */
export interface ListItems {
  "tools/list": MCPTool;
  "resources/list": Resource;
  "resources/templates/list": ResourceTemplate;
  "prompts/list": Prompt;
}

/**
 * Every item of a paginated MCP list (`tools/list`, `resources/list`, `resources/templates/list`,
 * `prompts/list`): one request per page, each checked by the SDK against the schema of that
 * page for the negotiated revision, cursors followed to the end with {@link collectPages}' guards.
 * (Our own walk rather than the SDK's aggregate, which stops silently on a repeated cursor.)
 * A `tools/list` goes through the SDK's SEP-2243 check too: on 2026-07-28, tools whose
 * `x-mcp-header` declarations are invalid are left out, as the specification requires.
 */
export async function listAll<M extends ListMethod>(
  client: Client,
  method: M,
  listing: ListRequest,
): Promise<ListItems[M][]> {
  return (await listAllWithHints(client, method, listing)).items;
}

/** How a whole list is asked for. */
export interface ListRequest {
  requestOptions: RequestOptions;
  /** What is listed from where, as errors say it (such as `tools/list from MCP server "x"`). */
  describe: string;
}

/** A whole list with the caching hints its pages carried (MCP 2026-07-28). */
export interface HintedList<T> {
  items: T[];
  /**
   * How long the list may be considered fresh, in milliseconds: the shortest `ttlMs` of its
   * pages (negative or non-finite counts as 0). Absent when no page carried one (2025 revisions).
   */
  ttlMs?: number;
  /** `"private"` if any page said so, else `"public"` if a page said so; absent otherwise. */
  cacheScope?: "public" | "private";
}

/** {@link listAll}, keeping the pages' `ttlMs`/`cacheScope` caching hints. */
export async function listAllWithHints<M extends ListMethod>(
  client: Client,
  method: M,
  { requestOptions, describe }: ListRequest,
): Promise<HintedList<ListItems[M]>> {
  const field = LISTS[method];
  const hints: { ttlMs?: number; cacheScope?: "public" | "private" } = {};
  const items = await collectPages(async (cursor) => {
    const page = (await client.request({ method, params: cursor ? { cursor } : {} }, requestOptions)) as {
      nextCursor?: string;
    } & Record<string, unknown>;
    if (method === "tools/list") excludeInvalidToolHeaders(client, page);
    mergeCacheHints(hints, page);
    return { items: page[field] as ListItems[M][], nextCursor: page.nextCursor };
  }, describe);
  return { items, ...hints };
}

/**
 * Folds one page's caching hints into the list's: the shortest lifetime and the narrowest scope
 * win (a negative or non-finite `ttlMs` counts as 0, anything that is not a hint is ignored).
 */
export function mergeCacheHints(
  hints: { ttlMs?: number; cacheScope?: "public" | "private" },
  page: Record<string, unknown>,
): void {
  if (typeof page.ttlMs === "number") {
    const ttlMs = Number.isFinite(page.ttlMs) && page.ttlMs > 0 ? page.ttlMs : 0;
    hints.ttlMs = hints.ttlMs === undefined ? ttlMs : Math.min(hints.ttlMs, ttlMs);
  }
  if (page.cacheScope === "private" || page.cacheScope === "public") {
    hints.cacheScope = hints.cacheScope === "private" ? "private" : page.cacheScope;
  }
}

/**
 * The SDK's own SEP-2243 filter (`sdkClientInternals`). If a later SDK renames it, the page is
 * kept whole: `callTool` still sends the headers it can, and the server refuses the rest.
 */
function excludeInvalidToolHeaders(client: Client, page: Record<string, unknown>): void {
  if (Array.isArray(page.tools)) sdkClientInternals(client).excludeInvalidHeaderTools?.(page);
}
