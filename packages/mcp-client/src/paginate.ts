import {
  JunctionError,
  type MCPTool,
  type Prompt,
  type Resource,
  type ResourceTemplate,
} from "@junction/types";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  ListPromptsResultSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesResultSchema,
  ListToolsResultSchema,
} from "@modelcontextprotocol/sdk/types.js";

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

/** The paginated MCP lists, each with the field its items come in and the schema of a page. */
const LISTS = {
  "tools/list": { field: "tools", schema: ListToolsResultSchema },
  "resources/list": { field: "resources", schema: ListResourcesResultSchema },
  "resources/templates/list": { field: "resourceTemplates", schema: ListResourceTemplatesResultSchema },
  "prompts/list": { field: "prompts", schema: ListPromptsResultSchema },
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
 * `prompts/list`): one request per page, each checked against the SDK's schema of that page,
 * cursors followed to the end with {@link collectPages}' guards.
 */
export function listAll<M extends ListMethod>(
  client: Client,
  method: M,
  requestOptions: RequestOptions,
  describe: string,
): Promise<ListItems[M][]> {
  const { field, schema } = LISTS[method];
  return collectPages(async (cursor) => {
    const page = (await client.request(
      { method, params: cursor ? { cursor } : {} },
      schema,
      requestOptions,
    )) as { nextCursor?: string } & Record<string, unknown>;
    return { items: page[field] as ListItems[M][], nextCursor: page.nextCursor };
  }, describe);
}
