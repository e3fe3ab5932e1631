import type { AgentEvent } from "./agent-events.js";

/** A piece of a streamed tool call, as the model stream hands it on (`tool-call-start` or `tool-call-delta`). */
export interface ToolCallPiece {
  id: string;
  name?: string;
  argumentsDelta?: string;
}

/**
 * The `tool-input-delta` events of one model turn: each piece of a call's argument JSON, as it
 * streams, with the text so far. Only calls the stream started (`tool-call-start`, which names
 * the tool) and whose arguments come in more than one piece get them (from the second piece on,
 * the first event carrying both), and none after the call is complete (its `tool-call`). The
 * pieces are the model's: untrusted, passed on only when they are strings.
 */
export class ToolInputStream {
  /** The calls still streaming, by the model's id, with the text not sent in an event yet. */
  readonly #calls = new Map<string, { id: string; name: string; inputText: string; unsent: string }>();
  readonly #emit: (event: AgentEvent) => void;
  readonly #idFor: (modelId: string) => string;
  readonly #hidden: (name: string) => boolean;

  /**
   * @param options.idFor The id the call will run under (its `tool-call`'s), from the model's id.
   * @param options.hidden Calls that get no events (the structured answer's tool, which is no tool call).
   */
  constructor(options: {
    emit: (event: AgentEvent) => void;
    idFor: (modelId: string) => string;
    hidden: (name: string) => boolean;
  }) {
    this.#emit = options.emit;
    this.#idFor = options.idFor;
    this.#hidden = options.hidden;
  }

  /** One piece from the stream: a call's start notes it, a piece of its arguments is emitted. */
  piece(piece: ToolCallPiece): void {
    if (typeof piece.id !== "string") return;
    if (piece.name !== undefined) {
      if (typeof piece.name !== "string" || this.#hidden(piece.name)) return;
      this.#calls.set(piece.id, { id: this.#idFor(piece.id), name: piece.name, inputText: "", unsent: "" });
      return;
    }
    const call = this.#calls.get(piece.id);
    const delta = piece.argumentsDelta;
    if (!call || typeof delta !== "string" || delta.length === 0) return;
    const first = call.inputText.length === 0;
    call.inputText += delta;
    call.unsent += delta;
    // Arguments that come whole, in one piece, do not stream: the first piece waits for a second.
    if (first) return;
    this.#emit({
      type: "tool-input-delta",
      id: call.id,
      name: call.name,
      delta: call.unsent,
      inputText: call.inputText,
    });
    call.unsent = "";
  }

  /** The call with this model id is complete: no more events for it. */
  complete(modelId: string): void {
    this.#calls.delete(modelId);
  }
}
