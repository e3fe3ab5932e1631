import type { MCPTool } from "@junction/types";
import type { HintedList } from "./paginate.js";

/**
 * The earliest an expiry notice follows the list it is about. A server may say `ttlMs: 0`; a
 * listener that lists again on every notice must not turn that into a request loop.
 */
export const MIN_EXPIRY_NOTICE_MS = 1_000;
const MAX_TIMER_MS = 2_147_483_647;

/**
 * One connection's cached `tools/list`. On 2026-07-28 a list is fresh for the `ttlMs` the server
 * sent with it (0: immediately stale); a list without the hint (2025 revisions) stays until
 * {@link ToolCache.invalidate} (a list-changed notice, a reconnect). A stale list is still
 * {@link ToolCache.held} for tool calls until its successor arrives. `cacheScope` asks nothing
 * more: the cache belongs to one connection, so one authorization context, and is never shared.
 *
 * Once a list's `ttlMs` has passed (but no sooner than {@link MIN_EXPIRY_NOTICE_MS} after it was
 * fetched), `onExpire` is called, once per list: whoever holds tools derived from it (an Agent)
 * learns to list again, since a server with `ttlMs` need not announce changes. The timer does not
 * keep a process alive, and is cleared by the next list and by {@link ToolCache.invalidate}.
 */
export class ToolCache {
  private tools?: MCPTool[];
  private loading?: Promise<MCPTool[]>;
  private generation = 0;
  private expireAt?: number;
  private expiryNotice?: ReturnType<typeof setTimeout>;

  /**
   * @param onStore - called with each list the cache takes (to derive per-tool data)
   * @param now - the clock, in milliseconds
   * @param onExpire - called when a stored list's `ttlMs` has passed (see the class comment)
   */
  constructor(
    private readonly onStore: (tools: MCPTool[]) => void,
    private readonly now: () => number = Date.now,
    private readonly onExpire: () => void = () => {},
  ) {}

  /** The listed tools, fresh or stale; `undefined` before the first list or after an invalidation. */
  get held(): MCPTool[] | undefined {
    return this.tools;
  }

  /** Drops the list; a fetch already under way will not be stored. */
  invalidate(): void {
    this.tools = undefined;
    this.expireAt = undefined;
    this.loading = undefined;
    this.generation++;
    clearTimeout(this.expiryNotice);
    this.expiryNotice = undefined;
  }

  /** The list while it is fresh, else the fetch under way, else a new one through `fetchList`. */
  get(fetchList: () => Promise<HintedList<MCPTool>>): Promise<MCPTool[]> {
    if (this.tools && !this.stale()) return Promise.resolve(this.tools);
    if (this.loading) return this.loading;
    // Cleared before any caller resumes, so a later get() sees the stored list, not this fetch.
    const loading: Promise<MCPTool[]> = this.fetch(fetchList).finally(() => {
      if (this.loading === loading) this.loading = undefined;
    });
    this.loading = loading;
    return loading;
  }

  /** Fetches the list now and stores it with its freshness, unless invalidated meanwhile. */
  async fetch(fetchList: () => Promise<HintedList<MCPTool>>): Promise<MCPTool[]> {
    const generation = this.generation;
    const fetchedAt = this.now();
    const list = await fetchList();
    if (generation === this.generation) {
      this.tools = list.items;
      this.expireAt = list.ttlMs === undefined ? undefined : fetchedAt + list.ttlMs;
      this.scheduleExpiryNotice(list.ttlMs);
      this.onStore(list.items);
    }
    return list.items;
  }

  private scheduleExpiryNotice(ttlMs: number | undefined): void {
    clearTimeout(this.expiryNotice);
    this.expiryNotice = undefined;
    if (ttlMs === undefined) return;
    const notice = setTimeout(
      () => {
        if (this.expiryNotice !== notice) return;
        this.expiryNotice = undefined;
        this.onExpire();
      },
      // setTimeout takes at most 2^31-1 ms (about 24.8 days); a longer delay would fire at once.
      Math.min(Math.max(ttlMs, MIN_EXPIRY_NOTICE_MS), MAX_TIMER_MS),
    );
    // A cached list must not keep a Node process alive.
    (notice as { unref?: () => void }).unref?.();
    this.expiryNotice = notice;
  }

  private stale(): boolean {
    return this.expireAt !== undefined && this.now() >= this.expireAt;
  }
}
