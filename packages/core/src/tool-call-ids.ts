import type { AssistantContentPart, Message, ToolCallPart, Warning } from "@junction/types";
import { jsonLimitProblem, MAX_TOOL_OUTPUT_DEPTH, withoutNegativeZero } from "./json-limits.js";

/**
 * The tool-call ids of one conversation. A model (or an OpenAI-compatible endpoint choosing its
 * own ids) may repeat an id, in a later step, a later turn or twice in one turn; every approval,
 * result and history entry is keyed by the id, so a repeat would show one call's arguments under
 * another's. Each call therefore gets an id no earlier call of the conversation has: the model's
 * own when it is free, otherwise the model's id with the first free `_2`, `_3`, … suffix (still
 * within `[a-zA-Z0-9_-]` when the model's id was), used in the events, the assistant message and
 * the tool message alike, so the provider pairs the result with its call on the next request.
 */
export class ToolCallIds {
  readonly #used = new Set<string>();

  /** Starts from every id the conversation already holds: calls and results, restored ones included. */
  constructor(history: readonly Message[]) {
    for (const message of history) {
      if (message.role === "assistant") {
        for (const part of message.content) if (part.type === "tool-call") this.#used.add(part.id);
      } else if (message.role === "tool") {
        for (const part of message.content) this.#used.add(part.toolCallId);
      }
    }
  }

  /** Marks the ids of calls that already have theirs (a replayed turn's) as used. */
  register(calls: readonly ToolCallPart[]): void {
    for (const call of calls) this.#used.add(call.id);
  }

  /** The id a call with the model's id `id` would be given if it were claimed now (nothing is claimed). */
  next(id: string): string {
    if (!this.#used.has(id)) return id;
    let suffix = 2;
    while (this.#used.has(`${id}_${suffix}`)) suffix++;
    return `${id}_${suffix}`;
  }

  /** The id `call` runs under: its own if unused, else a fresh one, with a `tool-call-id-reused` warning. */
  claim(call: ToolCallPart, warn: (warning: Warning) => void): ToolCallPart {
    const id = this.next(call.id);
    this.#used.add(id);
    if (id === call.id) return call;
    warn({
      code: "tool-call-id-reused",
      message: `The model reused the tool call id "${call.id}" (already used in this conversation) for a call to "${call.name}"; that call now has the id "${id}", so its approval, result and history are its own.`,
    });
    return { ...call, id };
  }
}

/**
 * Pairs the calls of a finished model turn with the calls already started from the stream. The
 * turn's nth call with model id X is the nth streamed call with model id X; the stored part keeps
 * the turn's own extras (provider metadata) but always the id, name and arguments that run. A
 * turn call that was never streamed is started now; a streamed call the turn left out is added
 * back. Arguments nested beyond {@link MAX_TOOL_OUTPUT_DEPTH} levels (which would overflow the
 * stack when the conversation is copied, sent or saved) are kept as `{}` and the call does not run.
 */
export class StepToolCalls {
  /** Streamed calls by the model's id, in stream order, each as it runs (with its final id). */
  readonly #streamed = new Map<string, ToolCallPart[]>();
  readonly #unmatched: ToolCallPart[] = [];
  readonly #rejected = new Set<ToolCallPart>();

  readonly ids: ToolCallIds;
  /** Starts a call (emits `tool-call`, runs it) under the id it was given; with `rejection`, it fails with that message instead of running. */
  readonly start: (call: ToolCallPart, rejection?: string) => void;
  readonly warn: (warning: Warning) => void;

  // Plain fields, not parameter properties: the bench's tuning script runs this file with Node's
  // type stripping, which takes only erasable syntax.
  constructor(
    ids: ToolCallIds,
    start: (call: ToolCallPart, rejection?: string) => void,
    warn: (warning: Warning) => void,
  ) {
    this.ids = ids;
    this.start = start;
    this.warn = warn;
  }

  /** A complete call from the stream: gets its unique id and starts at once. */
  streamed(call: ToolCallPart): void {
    const running = this.#claim(call);
    const queue = this.#streamed.get(call.id) ?? [];
    queue.push(running);
    this.#streamed.set(call.id, queue);
    this.#unmatched.push(running);
  }

  /** Gives `call` its unique id, checks its arguments, and starts it. */
  #claim(call: ToolCallPart): ToolCallPart {
    const named = this.ids.claim(call, this.warn);
    // A model's `-0` is zero: made 0 here, so what runs, is shown for approval and is signed agree.
    const input = withoutNegativeZero(named.input);
    const claimed = Object.is(input, named.input) ? named : { ...named, input };
    const problem = jsonLimitProblem(claimed.input, {
      maxDepth: MAX_TOOL_OUTPUT_DEPTH,
      maxChars: Number.POSITIVE_INFINITY,
    });
    if (!problem) {
      this.start(claimed);
      return claimed;
    }
    const rejected = { ...claimed, input: {} };
    this.#rejected.add(rejected);
    this.warn({
      code: "model-tool-call-invalid",
      message: `The model's arguments for tool call "${claimed.id}" (${claimed.name}) were left out: ${problem}. The call did not run.`,
    });
    this.start(
      rejected,
      `The arguments for tool "${claimed.name}" could not be used: ${problem}. Call it again with simpler arguments.`,
    );
    return rejected;
  }

  /** The turn's content with every call in the form that runs; calls not streamed are started here. */
  finish(parts: AssistantContentPart[]): AssistantContentPart[] {
    const content = parts.map((part): AssistantContentPart => {
      if (part.type !== "tool-call") return part;
      const running = this.#streamed.get(part.id)?.shift();
      if (!running) {
        const claimed = this.#claim(part);
        return { ...part, id: claimed.id, input: claimed.input };
      }
      this.#unmatched.splice(this.#unmatched.indexOf(running), 1);
      const mismatch = this.#rejected.has(running)
        ? part.name !== running.name
        : part.name !== running.name || !sameJSON(part.input, running.input);
      if (mismatch) {
        this.warn({
          code: "model-tool-call-mismatch",
          message: `The finished model turn gave tool call "${part.id}" a different name or arguments than the stream did; the streamed call (to "${running.name}") is the one that ran, and it is what the history keeps.`,
        });
      }
      // The program that made the call is the streamed call's too (what its approval showed).
      const { program: _finished, ...rest } = part;
      return {
        ...rest,
        id: running.id,
        name: running.name,
        input: running.input,
        ...(running.program ? { program: running.program } : {}),
      };
    });
    for (const call of this.#unmatched) {
      this.warn({
        code: "model-tool-call-missing",
        message: `The model streamed tool call "${call.id}" (${call.name}) but left it out of the finished turn; it was added back.`,
      });
      content.push(call);
    }
    this.#unmatched.length = 0;
    return content;
  }
}

/** Whether two JSON values are equal (key order aside). Iterative: the values come from a model. */
export function sameJSON(a: unknown, b: unknown): boolean {
  const pending: [unknown, unknown][] = [[a, b]];
  while (pending.length > 0) {
    const [left, right] = pending.pop()!;
    // -0 and 0 are the same JSON number (a model's -0 is made 0 when its call is claimed).
    if (Object.is(left, right) || (typeof left === "number" && left === right)) continue;
    if (typeof left !== "object" || typeof right !== "object" || left === null || right === null)
      return false;
    if (Array.isArray(left) !== Array.isArray(right)) return false;
    const leftKeys = Object.keys(left);
    const rightKeys = Object.keys(right);
    if (leftKeys.length !== rightKeys.length) return false;
    for (const key of leftKeys) {
      if (!Object.hasOwn(right, key)) return false;
      pending.push([(left as Record<string, unknown>)[key], (right as Record<string, unknown>)[key]]);
    }
  }
  return true;
}
