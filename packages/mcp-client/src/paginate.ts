import { JunctionError } from "@junction/types";

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
