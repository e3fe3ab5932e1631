import { JunctionError } from "@junction/types";
import type { EventId, EventStore, JSONRPCMessage, StreamId } from "@modelcontextprotocol/server";

/** What `InMemoryEventStore` takes. */
export interface InMemoryEventStoreOptions {
  /**
   * Events kept, over all the streams of the store; past it the oldest go. A client that asks
   * to resume after an event whose successors are gone is refused (the SDK answers 500) rather
   * than sent a stream with a hole in it.
   * @default 500
   */
  maxEvents?: number;
}

interface StoredEvent {
  sequence: number;
  message: JSONRPCMessage;
}

interface StoredStream {
  /** Oldest first. */
  events: StoredEvent[];
  /** The sequence of the last event dropped from it (0: none). */
  dropped: number;
}

/**
 * The SDK's `EventStore` in memory, bounded: what a 2025-11-25 session's SSE streams sent, so
 * that a client whose stream broke resumes it (`GET` with `Last-Event-ID`) and gets every message
 * sent after that event, the response included. One store per session (the default of
 * `sessions.eventStore`): an event ID names a stream of that session only.
 *
 * It has no `getStreamIdForEventId`, on purpose: with one, the SDK refuses (409) a client that
 * resumes a stream the server still thinks open, as it does after a connection that died without
 * a word (a network change); without one, the resumed stream takes the old one's place.
 *
 * @example
 * ```ts
 * createMCPHTTPHandler(server, { sessions: { eventStore: () => new InMemoryEventStore({ maxEvents: 200 }) } });
 * ```
 */
export class InMemoryEventStore implements EventStore {
  readonly #maxEvents: number;
  readonly #streams = new Map<StreamId, StoredStream>();
  /** The stream of each kept event, oldest first: which stream loses its first event next. */
  readonly #order: StreamId[] = [];
  #sequence = 0;

  constructor(options: InMemoryEventStoreOptions = {}) {
    const maxEvents = options.maxEvents ?? 500;
    if (!Number.isSafeInteger(maxEvents) || maxEvents < 1) {
      throw new JunctionError(
        "invalid-argument",
        `InMemoryEventStore: \`maxEvents\` must be a positive integer, not ${String(maxEvents)}.`,
      );
    }
    this.#maxEvents = maxEvents;
  }

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    this.#sequence += 1;
    const stream = this.#streams.get(streamId);
    const event = { sequence: this.#sequence, message };
    if (stream) stream.events.push(event);
    else this.#streams.set(streamId, { events: [event], dropped: 0 });
    this.#order.push(streamId);
    if (this.#order.length > this.#maxEvents) this.#dropOldest();
    return eventIdOf(streamId, this.#sequence);
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const resumable = this.#resumable(lastEventId);
    if (!resumable) {
      throw new JunctionError(
        "invalid-argument",
        `Cannot resume after event ${JSON.stringify(lastEventId)}: no such event is kept (unknown, or dropped past \`maxEvents\`).`,
      );
    }
    const { streamId, sequence } = resumable;
    for (const event of this.#streams.get(streamId)?.events ?? []) {
      // A priming event (`{}`) carries no message: it only gave the client an ID to resume from.
      if (event.sequence > sequence && "jsonrpc" in event.message) {
        await send(eventIdOf(streamId, event.sequence), event.message);
      }
    }
    return streamId;
  }

  /** The stream and position of `eventId`, when no event after it on its stream has been dropped. */
  #resumable(eventId: EventId): { streamId: StreamId; sequence: number } | undefined {
    const separator = eventId.lastIndexOf(":");
    if (separator <= 0) return undefined;
    const streamId = eventId.slice(0, separator);
    const sequence = Number(eventId.slice(separator + 1));
    const stream = this.#streams.get(streamId);
    if (!Number.isSafeInteger(sequence) || stream === undefined || stream.dropped > sequence)
      return undefined;
    return { streamId, sequence };
  }

  #dropOldest(): void {
    const streamId = this.#order.shift();
    if (streamId === undefined) return;
    const stream = this.#streams.get(streamId);
    const dropped = stream?.events.shift();
    if (!stream || !dropped) return;
    stream.dropped = dropped.sequence;
    // A stream with nothing left is forgotten: resuming it is refused, as for an unknown one.
    if (stream.events.length === 0) this.#streams.delete(streamId);
  }
}

function eventIdOf(streamId: StreamId, sequence: number): EventId {
  return `${streamId}:${sequence}`;
}
