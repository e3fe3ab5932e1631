import type { McpSubscription, SubscriptionFilter } from "@modelcontextprotocol/client";
import type { Session } from "./mcp-session.js";

/** Quick remote closes in a row after which the stream is not reopened until the next session. */
const MAX_REOPENS = 5;
/** Delay before reopening a stream the server dropped; doubles on each further drop. */
const REOPEN_DELAY_MS = 100;
/** A stream open this long counts as stable: its drop starts the reopen count afresh. */
const STABLE_MS = 5000;

/**
 * The one `subscriptions/listen` stream of a 2026-07-28 session (which has no
 * `resources/subscribe` and no GET stream): what the connection wants to hear of (tool list
 * changes, updates of subscribed resources) in one filter. The stream is reopened with the new
 * filter when it changes, after the server dropped it (`closed === "remote"`, bounded), and on
 * every new session. Its notifications reach the handlers registered on the SDK client.
 */
export class ListenStream {
  private session?: Session;
  private subscription?: McpSubscription;
  private reopens = 0;
  private timer?: ReturnType<typeof setTimeout>;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly filter: () => SubscriptionFilter,
    private readonly timeoutMs: () => number,
  ) {}

  /** The filter the server agreed to, while a stream is open. */
  get honored(): SubscriptionFilter | undefined {
    return this.subscription?.honoredFilter;
  }

  /**
   * Opens (or reopens) the stream on a modern session with the current filter; does nothing on
   * a legacy one. Resolves once the server acknowledged it; rejects with the SDK's error.
   */
  open(session: Session): Promise<void> {
    if (session !== this.session) this.reopens = 0;
    this.session = session;
    const run = this.queue.then(() => this.reopen(session));
    // The queue only orders reopens: `run` (returned) reports this one's failure to its caller.
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Closes the stream (the connection is closing, or the session is gone). */
  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.session = undefined;
    const subscription = this.subscription;
    this.subscription = undefined;
    // Closing a listen stream we are leaving: the server may already have ended it.
    await subscription?.close().catch(() => undefined);
  }

  private async reopen(session: Session): Promise<void> {
    clearTimeout(this.timer);
    if (this.session !== session || session.closing) return;
    if (session.client.getProtocolEra() !== "modern") return;
    const previous = this.subscription;
    this.subscription = undefined;
    // Replacing the stream: the old one may already be closed by the server.
    await previous?.close().catch(() => undefined);
    const filter = this.filter();
    const wanted =
      filter.toolsListChanged ||
      filter.promptsListChanged ||
      filter.resourcesListChanged ||
      (filter.resourceSubscriptions?.length ?? 0) > 0;
    if (!wanted) return;
    const subscription = await session.client.listen(filter, { timeout: this.timeoutMs() });
    if (this.session !== session || session.closing) {
      // The session moved on while the stream opened: the stream is unused either way.
      await subscription.close().catch(() => undefined);
      return;
    }
    this.subscription = subscription;
    const openedAt = Date.now();
    void subscription.closed.then((how) => {
      if (how !== "remote" || this.subscription !== subscription) return;
      this.subscription = undefined;
      // A stream that lived a while before dropping is not a server refusing it.
      if (Date.now() - openedAt > STABLE_MS) this.reopens = 0;
      if (this.session !== session || session.closing || this.reopens >= MAX_REOPENS) return;
      const delay = REOPEN_DELAY_MS * 2 ** this.reopens;
      this.reopens++;
      this.timer = setTimeout(() => {
        // A background reopen: a failure leaves updates to the next reconnect's tool refresh (see
        // MCP.connect), and further drops reopen again up to MAX_REOPENS.
        void this.open(session).catch(() => undefined);
      }, delay);
    });
  }
}
