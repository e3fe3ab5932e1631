import type { Message } from "@junction/types";

/**
 * A scan of a run's conversation kept across its steps. The conversation only grows (each step
 * appends its messages; the ones before are the same frozen objects), so each call folds just
 * the messages appended since the last one, instead of all of them every step. What was folded is
 * checked first, message by message (a pointer comparison each, far cheaper than the scans): a
 * different conversation, a message replaced, a shorter list, or a new `key` (the settings the
 * fold's verdicts depend on) starts the fold over, so the state never answers for other messages.
 * One per run and scan, held by the run: not a per-message cache, which would cost the garbage
 * collector a key per message per run.
 */
export class MessageFold<State> {
  readonly #start: () => State;
  readonly #step: (state: State, message: Message, index: number) => void;
  #folded: Message[] = [];
  #key: string | undefined;
  #state: State | undefined;

  /**
   * `start` makes the state of an empty conversation; `step` folds one more message into it
   * (`index` is its place in the conversation, whose earlier messages were folded already).
   */
  constructor(start: () => State, step: (state: State, message: Message, index: number) => void) {
    this.#start = start;
    this.#step = step;
  }

  /** The state after every message of `messages`, folded under `key`. */
  over(messages: readonly Message[], key = ""): State {
    if (this.#state === undefined || key !== this.#key || !this.#isPrefixOf(messages)) {
      this.#folded = [];
      this.#key = key;
      this.#state = this.#start();
    }
    const state = this.#state;
    let index = this.#folded.length;
    try {
      for (; index < messages.length; index++) {
        const message = messages[index]!;
        this.#step(state, message, index);
        this.#folded.push(message);
      }
    } finally {
      // A step that threw may have half-changed the state: the next call starts over.
      if (index < messages.length) this.#state = undefined;
    }
    return state;
  }

  #isPrefixOf(messages: readonly Message[]): boolean {
    const folded = this.#folded;
    if (messages.length < folded.length) return false;
    for (let index = 0; index < folded.length; index++) if (messages[index] !== folded[index]) return false;
    return true;
  }
}
