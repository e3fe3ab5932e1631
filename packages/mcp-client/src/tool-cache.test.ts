import type { MCPTool } from "@junction/types";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { HintedList } from "./paginate.js";
import { MIN_EXPIRY_NOTICE_MS, ToolCache } from "./tool-cache.js";

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

  describe("the expiry notice", () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    function notices(lists: HintedList<MCPTool>[]) {
      vi.useFakeTimers();
      let expired = 0;
      const cache = new ToolCache(
        () => {},
        () => Date.now(),
        () => expired++,
      );
      let fetches = 0;
      const fetchList = async () => lists[Math.min(fetches++, lists.length - 1)]!;
      return { cache, fetchList, expired: () => expired };
    }

    it("fires once when the list's ttlMs has passed, and a fresh list arms it anew", async () => {
      const test = notices([
        { items: [tool("a")], ttlMs: 5_000 },
        { items: [tool("b")], ttlMs: 5_000 },
      ]);
      await test.cache.get(test.fetchList);
      await vi.advanceTimersByTimeAsync(4_999);
      expect(test.expired()).toBe(0);
      await vi.advanceTimersByTimeAsync(1);
      expect(test.expired()).toBe(1);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(test.expired()).toBe(1);

      // Listing again (the list is stale) replaces the notice of the old list by its own.
      expect(await test.cache.get(test.fetchList)).toEqual([tool("b")]);
      await vi.advanceTimersByTimeAsync(5_000);
      expect(test.expired()).toBe(2);
    });

    it("a list fetched before the notice cancels it: only the newest list's notice fires", async () => {
      const test = notices([{ items: [tool("a")], ttlMs: 3_000 }]);
      await test.cache.get(test.fetchList);
      await vi.advanceTimersByTimeAsync(2_000);
      await test.cache.fetch(test.fetchList);
      await vi.advanceTimersByTimeAsync(2_999);
      expect(test.expired()).toBe(0);
      await vi.advanceTimersByTimeAsync(1);
      expect(test.expired()).toBe(1);
    });

    it(`comes no sooner than ${MIN_EXPIRY_NOTICE_MS} ms after the list, even for ttlMs 0`, async () => {
      const test = notices([{ items: [tool("a")], ttlMs: 0 }]);
      await test.cache.get(test.fetchList);
      await vi.advanceTimersByTimeAsync(MIN_EXPIRY_NOTICE_MS - 1);
      expect(test.expired()).toBe(0);
      await vi.advanceTimersByTimeAsync(1);
      expect(test.expired()).toBe(1);
    });

    it("never fires for a list without ttlMs, nor after invalidate()", async () => {
      const lasting = notices([{ items: [tool("a")] }]);
      await lasting.cache.get(lasting.fetchList);
      await vi.advanceTimersByTimeAsync(86_400_000);
      expect(lasting.expired()).toBe(0);
      vi.useRealTimers();

      const dropped = notices([{ items: [tool("a")], ttlMs: 2_000 }]);
      await dropped.cache.get(dropped.fetchList);
      dropped.cache.invalidate();
      await vi.advanceTimersByTimeAsync(10_000);
      expect(dropped.expired()).toBe(0);
    });

    it("a ttlMs past what a timer can hold (2^31-1 ms) does not fire at once", async () => {
      const test = notices([{ items: [tool("a")], ttlMs: 40 * 86_400_000 }]);
      await test.cache.get(test.fetchList);
      await vi.advanceTimersByTimeAsync(86_400_000);
      expect(test.expired()).toBe(0);
    });
  });
});
