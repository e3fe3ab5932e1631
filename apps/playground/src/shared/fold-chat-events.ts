import type { ChatEvent, TranscriptItem } from "./api-types.js";

/**
 * Folds one chat event into a transcript: the one rule both the server (what it stores) and the
 * page (what it shows) use. Pure: returns a new array, and a new object for every item it
 * changes, leaving the input as it was (so a view can re-render just the items that changed).
 *
 * - Text deltas grow the assistant message the transcript ends with, or start one.
 * - A tool call is one item by its id; approval, progress and result update it.
 * - A warning whose code was already shown in this turn (since the last user message) is not
 *   shown again: a provider that warns on every step warns once.
 * - An error ends every call still running (stopped if aborted, else denied) and says why.
 * - A run's trace id is an item of its own, so the turn keeps its trace when reloaded.
 */
export function foldChatEvent(transcript: readonly TranscriptItem[], event: ChatEvent): TranscriptItem[] {
  switch (event.type) {
    case "run-start":
    case "finish":
      return [...transcript];
    case "trace":
      return [...transcript, { kind: "trace", traceId: event.traceId }];
    case "text-delta": {
      const last = transcript.at(-1);
      if (last?.kind === "assistant")
        return [...transcript.slice(0, -1), { kind: "assistant", text: last.text + event.text }];
      return [...transcript, { kind: "assistant", text: event.text }];
    }
    case "tool-call": {
      if (findTool(transcript, event.id) !== -1) return [...transcript];
      return [
        ...transcript,
        {
          kind: "tool",
          id: event.id,
          name: event.name,
          server: event.server,
          input: event.input,
          status: "running",
        },
      ];
    }
    case "approval-request": {
      const index = findTool(transcript, event.id);
      if (index === -1) {
        return [
          ...transcript,
          {
            kind: "tool",
            id: event.id,
            name: event.name,
            server: event.server,
            input: event.input,
            status: "awaiting-approval",
          },
        ];
      }
      // What the person approves is what runs: the request's own arguments.
      return updateTool(transcript, index, { status: "awaiting-approval", input: event.input });
    }
    case "approval-answered": {
      const index = findTool(transcript, event.id);
      if (index === -1) return [...transcript];
      return updateTool(transcript, index, { status: event.approved ? "running" : "denied" });
    }
    case "tool-progress": {
      const index = findTool(transcript, event.id);
      if (index === -1) return [...transcript];
      const item = transcript[index] as Extract<TranscriptItem, { kind: "tool" }>;
      if (item.status !== "running") return [...transcript];
      return updateTool(transcript, index, {
        progress: {
          progress: event.progress,
          ...(event.total === undefined ? {} : { total: event.total }),
          ...(event.message === undefined ? {} : { message: event.message }),
        },
      });
    }
    case "tool-result": {
      const index = findTool(transcript, event.id);
      if (index === -1) return [...transcript];
      const item = transcript[index] as Extract<TranscriptItem, { kind: "tool" }>;
      const { progress: _done, ...rest } = item;
      const next: Extract<TranscriptItem, { kind: "tool" }> = {
        ...rest,
        status: item.status === "denied" ? "denied" : "done",
        result: event.result,
        durationMs: Math.round(event.durationMs),
        ...(event.truncated ? { truncated: event.truncated } : {}),
      };
      return [...transcript.slice(0, index), next, ...transcript.slice(index + 1)];
    }
    case "output":
      return [...transcript, { kind: "output", value: event.output }];
    case "context": {
      // One bar per turn: each step's request replaces the turn's earlier one.
      const turnStart = transcript.findLastIndex((item) => item.kind === "user") + 1;
      const kept = transcript.filter((item, index) => index < turnStart || item.kind !== "context");
      return [...kept, { kind: "context", size: event.size }];
    }
    case "warning": {
      const turnStart = transcript.findLastIndex((item) => item.kind === "user") + 1;
      const shown = transcript
        .slice(turnStart)
        .some((item) => item.kind === "notice" && item.code === event.code);
      if (shown) return [...transcript];
      return [...transcript, { kind: "notice", level: "warning", text: event.message, code: event.code }];
    }
    case "error":
      return [
        ...transcript.map((item) =>
          item.kind === "tool" && (item.status === "running" || item.status === "awaiting-approval")
            ? { ...item, status: event.aborted ? ("stopped" as const) : ("denied" as const) }
            : item,
        ),
        { kind: "notice", level: event.aborted ? "info" : "error", text: event.message },
      ];
    default: {
      const unknown: never = event;
      return [
        ...transcript,
        { kind: "notice", level: "warning", text: `Unknown event ${JSON.stringify(unknown)}` },
      ];
    }
  }
}

/** Folds a whole stream of events, in order. */
export function foldChatEvents(
  transcript: readonly TranscriptItem[],
  events: Iterable<ChatEvent>,
): TranscriptItem[] {
  let result = [...transcript];
  for (const event of events) result = foldChatEvent(result, event);
  return result;
}

/** The index of the tool item with this id in the current turn, or -1. */
function findTool(transcript: readonly TranscriptItem[], id: string): number {
  const turnStart = transcript.findLastIndex((item) => item.kind === "user") + 1;
  for (let index = transcript.length - 1; index >= turnStart; index--) {
    const item = transcript[index]!;
    if (item.kind === "tool" && item.id === id) return index;
  }
  return -1;
}

function updateTool(
  transcript: readonly TranscriptItem[],
  index: number,
  change: Partial<Extract<TranscriptItem, { kind: "tool" }>>,
): TranscriptItem[] {
  const item = transcript[index] as Extract<TranscriptItem, { kind: "tool" }>;
  return [...transcript.slice(0, index), { ...item, ...change }, ...transcript.slice(index + 1)];
}
