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

/** A fixed-window counter per key. Windows are forgotten once they are over. */
export class RateLimiter {
  readonly max: number;
  readonly windowMs: number;
  readonly #now: () => number;
  readonly #windows = new Map<string, { start: number; count: number }>();

  constructor(options: RateLimitOptions = {}) {
    this.max = options.max ?? 600;
    this.windowMs = options.windowMs ?? 60_000;
    this.#now = options.now ?? Date.now;
  }

  /** Counts a request; returns the seconds to wait when it is over the limit, else `undefined`. */
  take(key: string): number | undefined {
    const now = this.#now();
    if (this.#windows.size > 10_000) this.#sweep(now);
    const window = this.#windows.get(key);
    if (!window || now - window.start >= this.windowMs) {
      this.#windows.set(key, { start: now, count: 1 });
      return undefined;
    }
    window.count += 1;
    if (window.count <= this.max) return undefined;
    return Math.max(1, Math.ceil((window.start + this.windowMs - now) / 1000));
  }

  #sweep(now: number): void {
    for (const [key, window] of this.#windows) {
      if (now - window.start >= this.windowMs) this.#windows.delete(key);
    }
  }
}
