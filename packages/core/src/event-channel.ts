/**
 * A buffered, replayable event stream: the producer pushes without waiting, and every
 * iterator sees every event from the first one, however late it starts reading.
 */
export class EventChannel<T> implements AsyncIterable<T> {
  readonly #events: T[] = [];
  #closed = false;
  readonly #waiters = new Set<() => void>();

  push(event: T): void {
    if (this.#closed) return;
    this.#events.push(event);
    this.#wake();
  }

  close(): void {
    this.#closed = true;
    this.#wake();
  }

  get closed(): boolean {
    return this.#closed;
  }

  #wake(): void {
    if (this.#waiters.size === 0) return;
    const waiters = [...this.#waiters];
    this.#waiters.clear();
    for (const wake of waiters) wake();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    let index = 0;
    while (true) {
      if (index < this.#events.length) {
        yield this.#events[index++] as T;
        continue;
      }
      if (this.#closed) return;
      await new Promise<void>((resolve) => this.#waiters.add(resolve));
    }
  }
}
