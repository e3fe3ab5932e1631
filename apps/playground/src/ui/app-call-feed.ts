/** How an app's tool call ended: its result, or why it was cancelled (`ui/notifications/tool-cancelled`). */
export type AppCallOutcome = { result: unknown } | { cancelled: string };

type Arguments = Record<string, unknown>;

/** What a feed knows of its call so far. */
export interface AppCallState {
  /** The arguments as far as they have streamed (best effort), while they stream. */
  partial?: Arguments;
  /** The complete arguments. */
  input?: Arguments;
  outcome?: AppCallOutcome;
}

/**
 * A tool call as its app view learns of it: the arguments as they stream (a chat call whose
 * model streams them), the complete arguments, then how the call ended. Each comes in that order
 * and once: a piece after the complete arguments, or anything after the outcome, is ignored.
 */
export class AppCallFeed {
  #state: AppCallState = {};
  readonly #listeners = new Set<() => void>();

  /** A call whose arguments are known at once (the inspector's): its input now, its outcome when it comes. */
  static of(input: unknown, outcome: AppCallOutcome | Promise<AppCallOutcome>): AppCallFeed {
    const feed = new AppCallFeed();
    feed.input(input);
    void Promise.resolve(outcome).then((ended) => feed.end(ended));
    return feed;
  }

  get current(): Readonly<AppCallState> {
    return this.#state;
  }

  /** The arguments so far, while they stream. */
  partial(args: Arguments): void {
    if (this.#state.input || this.#state.outcome) return;
    this.#change({ ...this.#state, partial: args });
  }

  /** The complete arguments (anything that is not an object is sent as `{}`). */
  input(args: unknown): void {
    if (this.#state.input || this.#state.outcome) return;
    const input = typeof args === "object" && args !== null ? (args as Arguments) : {};
    this.#change({ ...this.#state, input });
  }

  end(outcome: AppCallOutcome): void {
    if (this.#state.outcome) return;
    this.#change({ ...this.#state, outcome });
  }

  /** Calls `listener` after every change; returns what stops it. */
  listen(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #change(state: AppCallState): void {
    this.#state = state;
    for (const listener of this.#listeners) listener();
  }
}

/** The longest a view waits for a partial: pieces that come faster are sent as the latest one. */
export const PARTIAL_INPUT_INTERVAL_MS = 50;

/**
 * What one view is sent of its call, in the spec's order: nothing before its `initialized`, then
 * `ui/notifications/tool-input-partial` with the arguments so far (coalesced: at most one per
 * `schedule`, the latest), `ui/notifications/tool-input` with the complete arguments, and only
 * after it `ui/notifications/tool-result` (or `ui/notifications/tool-cancelled`, which may come
 * without an input when the call ended while its arguments streamed).
 */
export function feedView({
  feed,
  notify,
  schedule = (send) => {
    const timer = setTimeout(send, PARTIAL_INPUT_INTERVAL_MS);
    return () => clearTimeout(timer);
  },
}: {
  feed: AppCallFeed;
  notify: (method: string, params: Record<string, unknown>) => void;
  /** Runs `send` a little later; returns what cancels it. */
  schedule?: (send: () => void) => () => void;
}): { initialized(): void; close(): void } {
  let started = false;
  let sentPartial: Arguments | undefined;
  let sentInput = false;
  let sentOutcome = false;
  let pending: (() => void) | undefined;
  let stopListening: (() => void) | undefined;
  const flush = () => {
    pending?.();
    pending = undefined;
    const { partial, input, outcome } = feed.current;
    if (!sentInput && input) {
      sentInput = true;
      notify("ui/notifications/tool-input", { arguments: input });
    } else if (!sentInput && !outcome && partial && partial !== sentPartial) {
      sentPartial = partial;
      notify("ui/notifications/tool-input-partial", { arguments: partial });
    }
    if (!outcome || sentOutcome) return;
    if ("cancelled" in outcome) {
      sentOutcome = true;
      notify("ui/notifications/tool-cancelled", { reason: outcome.cancelled });
    } else if (sentInput) {
      sentOutcome = true;
      notify("ui/notifications/tool-result", outcome.result as Record<string, unknown>);
    }
  };
  const changed = () => {
    if (sentOutcome) return;
    const { input, outcome } = feed.current;
    if (input || outcome) flush();
    else pending ??= schedule(flush);
  };
  return {
    initialized() {
      if (started) return;
      started = true;
      stopListening = feed.listen(changed);
      flush();
    },
    close() {
      stopListening?.();
      pending?.();
      pending = undefined;
    },
  };
}
