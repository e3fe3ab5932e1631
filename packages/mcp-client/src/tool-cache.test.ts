import type { MCPTool } from "@junction/types";
import { describe, expect, it } from "vitest";
import type { HintedList } from "./paginate.js";
import { ToolCache } from "./tool-cache.js";

function tool(name: string): MCPTool {
  return { name, inputSchema: { type: "object" } };
}

/** A cache on a clock the test moves, and a fetch that counts its calls. */
function setup(lists: HintedList<MCPTool>[]) {
  let clock = 1_000;
  const stored: string[][] = [];
  const cache = new ToolCache(
    (tools) => stored.push(tools.map((item) => item.name)),
    () => clock,
  );
  let fetches = 0;
  const fetchList = async () => {
    const list = lists[Math.min(fetches, lists.length - 1)];
    fetches++;
    if (!list) throw new Error("no list");
    return list;
  };
  return {
    cache,
    fetchList,
    stored,
    fetches: () => fetches,
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

describe("ToolCache", () => {
  it("serves a list for its ttlMs, then fetches it again; a held list stays until its successor", async () => {
    const test = setup([
      { items: [tool("a")], ttlMs: 500 },
      { items: [tool("b")], ttlMs: 500 },
    ]);
    expect(await test.cache.get(test.fetchList)).toEqual([tool("a")]);
    test.advance(499);
    expect(await test.cache.get(test.fetchList)).toEqual([tool("a")]);
    expect(test.fetches()).toBe(1);
    test.advance(1);
    expect(test.cache.held).toEqual([tool("a")]);
    expect(await test.cache.get(test.fetchList)).toEqual([tool("b")]);
    expect(test.fetches()).toBe(2);
    expect(test.stored).toEqual([["a"], ["b"]]);
  });

  it("keeps a list without ttlMs until invalidated, and fetches every time on ttlMs 0", async () => {
    const lasting = setup([{ items: [tool("a")] }]);
    await lasting.cache.get(lasting.fetchList);
    lasting.advance(86_400_000);
    await lasting.cache.get(lasting.fetchList);
    expect(lasting.fetches()).toBe(1);
    lasting.cache.invalidate();
    expect(lasting.cache.held).toBeUndefined();
    await lasting.cache.get(lasting.fetchList);
    expect(lasting.fetches()).toBe(2);

    const stale = setup([{ items: [tool("a")], ttlMs: 0 }]);
    await stale.cache.get(stale.fetchList);
    await stale.cache.get(stale.fetchList);
    expect(stale.fetches()).toBe(2);
  });

  it("shares one fetch between concurrent callers and drops a list invalidated while in flight", async () => {
    const test = setup([{ items: [tool("a")], ttlMs: 1000 }]);
    const [first, second] = await Promise.all([
      test.cache.get(test.fetchList),
      test.cache.get(test.fetchList),
    ]);
    expect(first).toEqual([tool("a")]);
    expect(second).toBe(first);
    expect(test.fetches()).toBe(1);

    test.cache.invalidate();
    const inFlight = test.cache.get(test.fetchList);
    test.cache.invalidate();
    expect(await inFlight).toEqual([tool("a")]);
    expect(test.cache.held).toBeUndefined();
    expect(test.stored).toEqual([["a"]]);
  });
});
