/** Runs tasks with at most `limit` of them in flight; the rest wait in arrival order. */
export class ConcurrencyLimit {
  readonly #limit: number;
  #active = 0;
  readonly #queue: (() => void)[] = [];

  constructor(limit: number) {
    this.#limit = Number.isFinite(limit) ? Math.max(1, Math.floor(limit)) : Number.POSITIVE_INFINITY;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#active >= this.#limit) {
      // The finishing task hands its slot straight to us, so `#active` already counts this one.
      await new Promise<void>((resolve) => this.#queue.push(resolve));
    } else {
      this.#active++;
    }
    try {
      return await task();
    } finally {
      const next = this.#queue.shift();
      if (next) next();
      else this.#active--;
    }
  }
}
