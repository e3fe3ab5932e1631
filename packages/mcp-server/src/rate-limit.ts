/** A per-client request limit: `max` requests per `windowMs`, per key. */
export interface RateLimitOptions {
  /**
   * Requests a client may make per window.
   * @default 600
   */
  max?: number;
  /**
   * The window, in milliseconds.
   * @default 60000
   */
  windowMs?: number;
  /**
   * Which client a request comes from. Defaults to the verified token's `clientId` when the
   * endpoint has `auth`, else the peer address the runtime reports (`serveHTTP` on Node), else
   * one shared key for every request. Never a header a client can forge, unless you say so here.
   */
  key?: (request: Request) => string | undefined;
  /** The clock, in milliseconds (for tests). @default Date.now */
  now?: () => number;
}

/** Keys a limiter keeps at most: past this, the oldest are forgotten (they start a new window). */
export const MAX_RATE_KEYS = 100_000;

/** A fixed-window counter per key. Windows are forgotten once they are over. */
export class RateLimiter {
  readonly max: number;
  readonly windowMs: number;
  readonly #now: () => number;
  readonly #windows = new Map<string, { start: number; count: number }>();
  #sweptAt = Number.NEGATIVE_INFINITY;

  constructor(options: RateLimitOptions = {}) {
    this.max = options.max ?? 600;
    this.windowMs = options.windowMs ?? 60_000;
    this.#now = options.now ?? Date.now;
  }

  /** The keys counted now (for tests and metrics). */
  get size(): number {
    return this.#windows.size;
  }

  /** Counts a request; returns the seconds to wait when it is over the limit, else `undefined`. */
  take(key: string): number | undefined {
    const now = this.#now();
    if (this.#windows.size >= 10_000) this.#sweep(now);
    const window = this.#windows.get(key);
    if (!window || now - window.start >= this.windowMs) {
      // A new window goes last, so the map stays in the order windows started.
      this.#windows.delete(key);
      this.#windows.set(key, { start: now, count: 1 });
      return undefined;
    }
    window.count += 1;
    if (window.count <= this.max) return undefined;
    return Math.max(1, Math.ceil((window.start + this.windowMs - now) / 1000));
  }

  /**
   * Forgets windows that are over, at most once a tenth of a window (a sweep is a walk over every
   * key: each request walking them would let many keys cost every request), then the oldest
   * windows past {@link MAX_RATE_KEYS}: many keys in one window (a client changing its address)
   * cost a bounded memory, not an unbounded one.
   */
  #sweep(now: number): void {
    if (now - this.#sweptAt >= this.windowMs / 10) {
      this.#sweptAt = now;
      for (const [key, window] of this.#windows) {
        // In start order: the first window not over ends the walk.
        if (now - window.start < this.windowMs) break;
        this.#windows.delete(key);
      }
    }
    for (const key of this.#windows.keys()) {
      if (this.#windows.size < MAX_RATE_KEYS) break;
      this.#windows.delete(key);
    }
  }
}

/**
 * The key a peer address is limited by: an IPv6 address by its /64 network (one client is given a
 * /64 and can use any address in it; counting each address would give it 2^64 allowances), an
 * IPv4 one (also as `::ffff:a.b.c.d`) as itself.
 */
export function addressRateKey(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1] as string;
  if (!address.includes(":")) return address;
  const [head = "", tail = ""] = address.toLowerCase().replace(/%.*$/, "").split("::");
  const heads = head === "" ? [] : head.split(":");
  const tails = tail === "" ? [] : tail.split(":");
  const groups = address.includes("::")
    ? [...heads, ...Array(Math.max(0, 8 - heads.length - tails.length)).fill("0"), ...tails]
    : heads;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}
