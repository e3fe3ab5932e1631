import type { ToolProgress, Warning } from "@junction/types";
import type { AgentEvent } from "./agent-events.js";

/** At most one `tool-progress` event per call in this many milliseconds. */
export const TOOL_PROGRESS_INTERVAL_MS = 100;

/** A progress message longer than this is cut (with `…`). */
export const MAX_TOOL_PROGRESS_MESSAGE_CHARS = 500;

/**
 * A progress report from a tool (for MCP tools, a server's `notifications/progress`) checked as
 * untrusted input: `progress` must be a finite number (else the report is refused, with why);
 * a `total` that is not a finite number, or a `message` that is not a string, is left out; a
 * long message is cut. Pure.
 */
export function checkToolProgress(
  report: unknown,
): { ok: true; progress: ToolProgress } | { ok: false; problem: string } {
  if (typeof report !== "object" || report === null) {
    return { ok: false, problem: `the report is ${report === null ? "null" : typeof report}, not an object` };
  }
  const { progress, total, message } = report as Record<string, unknown>;
  if (typeof progress !== "number" || !Number.isFinite(progress)) {
    return { ok: false, problem: `its progress is ${describe(progress)}, not a finite number` };
  }
  const checked: ToolProgress = { progress };
  if (typeof total === "number" && Number.isFinite(total)) checked.total = total;
  if (typeof message === "string") checked.message = capMessage(message);
  return { ok: true, progress: checked };
}

function capMessage(message: string): string {
  if (message.length <= MAX_TOOL_PROGRESS_MESSAGE_CHARS) return message;
  let end = MAX_TOOL_PROGRESS_MESSAGE_CHARS - 1;
  // Never split a surrogate pair.
  const last = message.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${message.slice(0, end)}…`;
}

function describe(value: unknown): string {
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return `the string ${JSON.stringify(value.slice(0, 40))}`;
  return value === null ? "null" : typeof value;
}

/**
 * Turns one tool call's progress reports into `tool-progress` events, bounded: the first report
 * goes out at once, then at most one per `intervalMs`, the latest of the ones that arrived in
 * between (a server flooding reports costs the consumer nothing more). Once `close()` is called
 * (the call has its result, or was aborted) nothing more is emitted: a report still waiting is
 * dropped, as the result supersedes it. An unusable report is dropped with one
 * `tool-progress-invalid` warning per call.
 */
export class ToolProgressReporter {
  readonly #call: { id: string; name: string };
  readonly #emit: (event: AgentEvent) => void;
  readonly #warn: (warning: Warning) => void;
  readonly #intervalMs: number;
  #pending: ToolProgress | undefined;
  #lastEmitted = Number.NEGATIVE_INFINITY;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;
  #warned = false;

  constructor(options: {
    call: { id: string; name: string };
    emit: (event: AgentEvent) => void;
    warn: (warning: Warning) => void;
    intervalMs?: number;
  }) {
    this.#call = options.call;
    this.#emit = options.emit;
    this.#warn = options.warn;
    this.#intervalMs = options.intervalMs ?? TOOL_PROGRESS_INTERVAL_MS;
  }

  /** One report from the tool; never throws. */
  report(report: unknown): void {
    if (this.#closed) return;
    const checked = checkToolProgress(report);
    if (!checked.ok) {
      if (!this.#warned) {
        this.#warned = true;
        this.#warn({
          code: "tool-progress-invalid",
          message: `Tool "${this.#call.name}" (call "${this.#call.id}") sent a progress report that was dropped: ${checked.problem}. Later unusable reports of this call are dropped without a warning.`,
        });
      }
      return;
    }
    this.#pending = checked.progress;
    const waited = performance.now() - this.#lastEmitted;
    if (waited >= this.#intervalMs) this.#flush();
    else this.#timer ??= setTimeout(() => this.#flush(), this.#intervalMs - waited);
  }

  /** The call is over: cancels a waiting report; nothing is emitted after this. */
  close(): void {
    this.#closed = true;
    this.#pending = undefined;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #flush(): void {
    // A report may find the interval over before a waiting timer fires: that timer must not
    // flush again right after this one.
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    const pending = this.#pending;
    if (this.#closed || !pending) return;
    this.#pending = undefined;
    this.#lastEmitted = performance.now();
    this.#emit({ type: "tool-progress", id: this.#call.id, name: this.#call.name, ...pending });
  }
}
