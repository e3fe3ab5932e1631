import { createAbortError, JunctionError, type ToolProgress } from "@junction/types";
import {
  type InputRequiredResult,
  inputRequired,
  type McpServer,
  type RequestStateCodec,
  type ServerContext,
} from "@modelcontextprotocol/server";
import {
  checkForwardable,
  clientCapabilitiesOf,
  type ForwardedMethod,
  type PassThroughRelay,
  type PassThroughScope,
} from "./pass-through.js";
import { toolContext } from "./serve-tool.js";
import type { Era } from "./served-types.js";

/** What a call parked for a 2026-07-28 client's retry carries in `requestState` (sealed). */
export interface PassThroughRound {
  kind: "junction.pass-through";
  /** The tool it belongs to: a state minted for one tool is refused by another. */
  tool: string;
  /** The parked call's id in this process. */
  park: string;
}

/** What one served call's work gets: its signal, and progress for the client's current request. */
export interface PassThroughWork {
  signal: AbortSignal;
  onProgress?: (progress: ToolProgress) => void;
}

/** How a served call with pass-through ended this request: done, or asking its client (2026-07-28). */
export type PassThroughOutcome<T> =
  | { kind: "done"; value: T }
  | { kind: "input"; result: InputRequiredResult };

/**
 * Runs one served call (a gateway's upstream call, an agent tool's run) so that what its upstream
 * servers ask reaches this call's client. On a 2025-11-25 session the request is sent to the
 * client within the call. On 2026-07-28, where a server cannot send requests, the call is
 * parked in this process and the request goes out as an `input_required` result (the parked
 * call's id sealed in `requestState`); the client's retry carries the answer back, and the call
 * goes on until it is done or asks again. `start` is not called for such a retry.
 */
export async function runWithPassThrough<T>(parts: {
  relay: PassThroughRelay | undefined;
  server: McpServer;
  context: ServerContext;
  era: Era;
  tool: string;
  codec: RequestStateCodec;
  start: (work: PassThroughWork) => Promise<T>;
}): Promise<PassThroughOutcome<T>> {
  const { relay, server, context, era, tool } = parts;
  const progress = toolContext(context).onProgress;
  const work: PassThroughWork = {
    signal: context.mcpReq.signal,
    ...(progress ? { onProgress: progress } : {}),
  };
  if (!relay) return { kind: "done", value: await parts.start(work) };
  if (era === "legacy") {
    const scope: PassThroughScope = {
      tool,
      forward: (method, params) => {
        checkForwardable(clientCapabilitiesOf(server, context), method, tool);
        const options = { signal: context.mcpReq.signal };
        return method === "elicitation/create"
          ? context.mcpReq.elicitInput(params as never, options)
          : context.mcpReq.requestSampling(params as never, options);
      },
    };
    return { kind: "done", value: await relay.run(scope, () => parts.start(work)) };
  }
  const round = context.mcpReq.requestState<PassThroughRound>();
  let call: ParkedCall<T>;
  if (round?.kind === "junction.pass-through" && round.tool === tool) {
    const parked = relay.parked.get(round.park);
    if (!(parked instanceof ParkedCall)) {
      throw new JunctionError(
        "invalid-argument",
        `The call to "${tool}" that asked for this answer is no longer waiting in this server process (it timed out, or the server restarted): call the tool again.`,
      );
    }
    call = parked as ParkedCall<T>;
    call.answer(context.mcpReq.inputResponses ?? {});
  } else {
    call = new ParkedCall(relay, tool, parts.start);
  }
  call.progress = progress;
  call.capabilities = () => clientCapabilitiesOf(server, context);
  const next = await call.next(context.mcpReq.signal);
  if (next.kind === "done") return next;
  const requestState = await parts.codec.mint(
    { kind: "junction.pass-through", tool, park: call.id } satisfies PassThroughRound,
    context,
  );
  return {
    kind: "input",
    result: inputRequired({ inputRequests: next.requests as never, requestState }),
  };
}

interface Waiting {
  method: ForwardedMethod;
  params: Record<string, unknown>;
  resolve(answer: unknown): void;
  reject(error: unknown): void;
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * A served call going on in this process between a 2026-07-28 client's requests: its work, and
 * the upstream requests waiting for the client's answer. It is aborted when no retry comes
 * within the relay's `timeoutMs`, or when the client cancels a request of it.
 */
class ParkedCall<T> {
  readonly id = globalThis.crypto.randomUUID();
  progress: ((progress: ToolProgress) => void) | undefined;
  capabilities: () => ReturnType<typeof clientCapabilitiesOf> = () => undefined;
  readonly #relay: PassThroughRelay;
  readonly #controller = new AbortController();
  readonly #waiting = new Map<string, Waiting>();
  #settled: Settled<T> | undefined;
  #wake: (() => void) | undefined;
  #count = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(relay: PassThroughRelay, tool: string, start: (work: PassThroughWork) => Promise<T>) {
    this.#relay = relay;
    relay.parked.set(this.id, this);
    const scope: PassThroughScope = {
      tool,
      forward: (method, params) => {
        checkForwardable(this.capabilities(), method, tool);
        return new Promise((resolve, reject) => {
          this.#count += 1;
          this.#waiting.set(`forward:${this.#count}`, { method, params, resolve, reject });
          this.#wake?.();
        });
      },
    };
    const work: PassThroughWork = {
      signal: this.#controller.signal,
      onProgress: (progress) => this.progress?.(progress),
    };
    relay
      .run(scope, () => start(work))
      .then(
        (value) => this.#settle({ ok: true, value }),
        (error: unknown) => this.#settle({ ok: false, error }),
      );
  }

  /** Hands the client's answers to the requests waiting under their keys; other keys are ignored. */
  answer(responses: Record<string, unknown>): void {
    for (const [key, waiting] of this.#waiting) {
      if (!Object.hasOwn(responses, key)) continue;
      this.#waiting.delete(key);
      waiting.resolve(responses[key]);
    }
  }

  /** Waits until the call is done or asks its client; `signal` is the client's current request. */
  async next(
    signal: AbortSignal,
  ): Promise<{ kind: "done"; value: T } | { kind: "input"; requests: Record<string, unknown> }> {
    clearTimeout(this.#timer);
    const cancel = () => this.abort(signal.reason);
    if (signal.aborted) cancel();
    signal.addEventListener("abort", cancel, { once: true });
    try {
      for (;;) {
        const settled = this.#settled;
        if (settled) {
          this.#relay.parked.delete(this.id);
          if (settled.ok) return { kind: "done", value: settled.value };
          throw settled.error;
        }
        if (this.#waiting.size > 0) {
          const requests: Record<string, unknown> = {};
          for (const [key, waiting] of this.#waiting) {
            requests[key] = { method: waiting.method, params: waiting.params };
          }
          this.#timer = setTimeout(
            () =>
              this.abort(
                createAbortError(`No answer came within ${this.#relay.timeoutMs} ms; the call was given up.`),
              ),
            this.#relay.timeoutMs,
          );
          // A call left waiting must not keep the process alive.
          (this.#timer as { unref?: () => void }).unref?.();
          return { kind: "input", requests };
        }
        await new Promise<void>((resolve) => {
          this.#wake = resolve;
        });
        this.#wake = undefined;
      }
    } finally {
      signal.removeEventListener("abort", cancel);
    }
  }

  /** Aborts the work and the requests waiting for an answer. */
  abort(reason: unknown): void {
    clearTimeout(this.#timer);
    this.#relay.parked.delete(this.id);
    this.#controller.abort(reason);
    for (const waiting of this.#waiting.values()) waiting.reject(reason);
    this.#waiting.clear();
  }

  #settle(settled: Settled<T>): void {
    this.#settled = settled;
    this.#wake?.();
  }
}
