import { parsePartialJSON } from "@junction/core";

/**
 * The longest streamed argument text whose partial arguments the page is sent: each piece is
 * read again from the start, and a call's arguments past this are shown once complete.
 */
export const MAXIMUM_PARTIAL_INPUT_CHARACTERS = 64 * 1024;

/** How much a call's argument text grows, over what the page was last sent of it, before it is sent again. */
const GROWTH_BEFORE_RESENDING = 1 / 8;

/**
 * Which of a run's streamed argument texts go to the page, read as the arguments so far: a call's
 * first, then one each time its text has grown by an eighth, so a long argument reaches the page
 * in a few dozen events, never one per token (each carries the whole object so far). Up to
 * {@link MAXIMUM_PARTIAL_INPUT_CHARACTERS}; only text that reads as an object.
 */
export class PartialInputs {
  /** The length of the text last sent, by call id. */
  readonly #sent = new Map<string, number>();

  /** The arguments to send for `inputText` of call `id`, or undefined when this piece is not sent. */
  next(id: string, inputText: string): Record<string, unknown> | undefined {
    if (inputText.length > MAXIMUM_PARTIAL_INPUT_CHARACTERS) return undefined;
    const sent = this.#sent.get(id);
    if (sent !== undefined && inputText.length < sent * (1 + GROWTH_BEFORE_RESENDING)) return undefined;
    const input = parsePartialJSON(inputText);
    if (typeof input !== "object" || input === null || Array.isArray(input)) return undefined;
    this.#sent.set(id, inputText.length);
    return input as Record<string, unknown>;
  }
}
