import type {
  ChatEvent,
  ProgramCallOf,
  ProgramCallRecord,
  ToolCallRecord,
  TranscriptItem,
} from "./api-types.js";

type ToolItem = Extract<TranscriptItem, { kind: "tool" }>;

/**
 * Folds one chat event into a transcript: the one rule both the server (what it stores) and the
 * page (what it shows) use. Pure: returns a new array, and a new object for every item it
 * changes, leaving the input as it was (so a view can re-render just the items that changed).
 *
 * - Text deltas grow the assistant message the transcript ends with, or start one.
 * - A tool call is one item by its id; approval, progress and result update it. A call whose
 *   arguments stream is listed from its first piece, marked `inputStreaming` with the arguments
 *   so far, until its `tool-call` gives the complete ones.
 * - A call a program made (code mode: its events carry `parent`) is listed in its program's item,
 *   by its sequence number; its approval, progress and result update it there.
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
    case "tool-input-delta":
      return withStreamedInput(transcript, event);
    case "tool-call":
      return withToolCall(transcript, event);
    case "approval-request":
      return withApprovalRequest(transcript, event);
    case "approval-answered":
      return updateCall(transcript, { id: event.id, parentId: undefined }, (call) => ({
        ...call,
        status: event.approved ? "running" : "denied",
      }));
    case "tool-progress":
      return updateCall(transcript, { id: event.id, parentId: undefined }, (call) =>
        call.status !== "running"
          ? call
          : {
              ...call,
              progress: {
                progress: event.progress,
                ...(event.total === undefined ? {} : { total: event.total }),
                ...(event.message === undefined ? {} : { message: event.message }),
              },
            },
      );
    case "tool-result":
      return withToolResult(transcript, event);
    case "output":
      return [...transcript, { kind: "output", value: event.output }];
    case "context": {
      // One bar per turn: each step's request replaces the turn's earlier one.
      const turnStart = transcript.findLastIndex((item) => item.kind === "user") + 1;
      const kept = transcript.filter((item, index) => index < turnStart || item.kind !== "context");
      return [...kept, { kind: "context", size: event.size }];
    }
    case "warning":
      return withWarning(transcript, event);
    case "error":
      return withError(transcript, event);
    default: {
      const unknown: never = event;
      return [
        ...transcript,
        { kind: "notice", level: "warning", text: `Unknown event ${JSON.stringify(unknown)}` },
      ];
    }
  }
}

/** The chat event of type `T`. */
type EventOf<T extends ChatEvent["type"]> = Extract<ChatEvent, { type: T }>;

/** A call's arguments so far: listed from its first piece, marked `inputStreaming` until its `tool-call`. */
function withStreamedInput(
  transcript: readonly TranscriptItem[],
  event: EventOf<"tool-input-delta">,
): TranscriptItem[] {
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
        status: "running",
        inputStreaming: true,
      },
    ];
  }
  // Only while the arguments stream: a complete call keeps its own.
  const item = transcript[index] as ToolItem;
  return item.inputStreaming ? updateTool(transcript, index, { input: event.input }) : [...transcript];
}

/** A call, complete: a program's goes into its program's item; a streamed one gets its whole arguments. */
function withToolCall(transcript: readonly TranscriptItem[], event: EventOf<"tool-call">): TranscriptItem[] {
  if (event.parent) {
    const { id, sequence, name, program } = event.parent;
    return addProgramCall(
      transcript,
      { parent: { id, sequence }, call: runningCall(event, sequence) },
      program !== undefined ? { name: name ?? "program", source: program } : undefined,
    );
  }
  const index = findTool(transcript, event.id);
  if (index !== -1) {
    const item = transcript[index] as ToolItem;
    if (!item.inputStreaming) return [...transcript];
    // The streamed call is complete: its arguments as they run.
    const { inputStreaming: _complete, ...rest } = item;
    return [
      ...transcript.slice(0, index),
      {
        ...rest,
        input: event.input,
        ...(event.program !== undefined ? { program: { source: event.program, calls: [] } } : {}),
      },
      ...transcript.slice(index + 1),
    ];
  }
  return [
    ...transcript,
    {
      kind: "tool",
      id: event.id,
      name: event.name,
      server: event.server,
      input: event.input,
      status: "running",
      ...(event.program !== undefined ? { program: { source: event.program, calls: [] } } : {}),
    },
  ];
}

/** A call that waits for the person, with the arguments they approve (a program's, in its program's item). */
function withApprovalRequest(
  transcript: readonly TranscriptItem[],
  event: EventOf<"approval-request">,
): TranscriptItem[] {
  const reason = event.item?.reason;
  // What the person approves is what runs: the request's own arguments.
  const asked = {
    status: "awaiting-approval" as const,
    input: event.input,
    ...(reason !== undefined ? { reason } : {}),
  };
  const parent = event.item?.parent;
  if (parent) {
    const listed = addProgramCall(
      transcript,
      { parent: { id: parent.id, sequence: parent.sequence }, call: runningCall(event, parent.sequence) },
      { name: parent.name, source: parent.program },
    );
    const waiting = updateCall(listed, { id: event.id, parentId: parent.id }, (call) => ({
      ...call,
      ...asked,
      program: parent.program,
    }));
    // The program waits for this answer (again, after a run that failed was ended): it is running.
    return updateCall(waiting, { id: parent.id, parentId: undefined }, (program) =>
      program.status === "running" ? program : { ...program, status: "running" },
    );
  }
  const index = findTool(transcript, event.id);
  if (index === -1) {
    return [...transcript, { kind: "tool", id: event.id, name: event.name, server: event.server, ...asked }];
  }
  const { inputStreaming: _complete, ...current } = transcript[index] as ToolItem;
  return [...transcript.slice(0, index), { ...current, ...asked }, ...transcript.slice(index + 1)];
}

/** A call's result: the same record, done (or denied), its progress gone. */
function withToolResult(
  transcript: readonly TranscriptItem[],
  event: EventOf<"tool-result">,
): TranscriptItem[] {
  return updateCall(transcript, { id: event.id, parentId: event.parent?.id }, (call) => {
    const { progress: _done, ...rest } = call;
    // The same record with its progress gone: a program's call stays one, a model's call one.
    return {
      ...rest,
      status: call.status === "denied" ? "denied" : "done",
      result: event.result,
      durationMs: Math.round(event.durationMs),
      ...(event.truncated ? { truncated: event.truncated } : {}),
      ...(event.outcome !== undefined ? { outcome: event.outcome } : {}),
    } as typeof call;
  });
}

/** A warning, unless one with its code was already shown this turn. */
function withWarning(transcript: readonly TranscriptItem[], event: EventOf<"warning">): TranscriptItem[] {
  const turnStart = transcript.findLastIndex((item) => item.kind === "user") + 1;
  const shown = transcript
    .slice(turnStart)
    .some((item) => item.kind === "notice" && item.code === event.code);
  if (shown) return [...transcript];
  return [...transcript, { kind: "notice", level: "warning", text: event.message, code: event.code }];
}

/** An error: every call still running ends (stopped if aborted, else denied), and a notice says why. */
function withError(transcript: readonly TranscriptItem[], event: EventOf<"error">): TranscriptItem[] {
  const ended = event.aborted ? ("stopped" as const) : ("denied" as const);
  const end = <Call extends ToolCallRecord>(call: Call): Call =>
    call.status === "running" || call.status === "awaiting-approval" ? { ...call, status: ended } : call;
  return [
    ...transcript.map((item) => {
      if (item.kind !== "tool") return item;
      const ended = end(item);
      if (!item.program?.calls.some((call) => end(call) !== call)) return ended;
      return { ...ended, program: { ...item.program, calls: item.program.calls.map(end) } };
    }),
    { kind: "notice", level: event.aborted ? "info" : "error", text: event.message },
  ];
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
  change: Partial<ToolItem>,
): TranscriptItem[] {
  const item = transcript[index] as ToolItem;
  return [...transcript.slice(0, index), { ...item, ...change }, ...transcript.slice(index + 1)];
}

/**
 * Changes the call with this id in the current turn: the model's call of that id, else a call a
 * program made (only those of program `parentId`, when given). Only the call, its program's item
 * and the array are new objects; an unknown id, or a change that returns the call as it was,
 * leaves every item as it was.
 */
/** A program's call as it starts (or is asked about): running, at its place in the program. */
function runningCall(
  event: Pick<ProgramCallRecord, "id" | "name" | "server" | "input">,
  sequence: number,
): ProgramCallRecord {
  return {
    id: event.id,
    name: event.name,
    server: event.server,
    input: event.input,
    status: "running",
    sequence,
  };
}

function updateCall(
  transcript: readonly TranscriptItem[],
  { id, parentId }: { id: string; parentId: string | undefined },
  change: <Call extends ToolCallRecord>(call: Call) => Call,
): TranscriptItem[] {
  if (parentId === undefined) {
    const index = findTool(transcript, id);
    if (index !== -1) {
      const item = transcript[index] as ToolItem;
      const changed = change(item);
      return changed === item
        ? [...transcript]
        : [...transcript.slice(0, index), changed, ...transcript.slice(index + 1)];
    }
  }
  const turnStart = transcript.findLastIndex((item) => item.kind === "user") + 1;
  for (let index = transcript.length - 1; index >= turnStart; index--) {
    const item = transcript[index]!;
    if (item.kind !== "tool" || !item.program) continue;
    if (parentId !== undefined && item.id !== parentId) continue;
    const at = item.program.calls.findIndex((call) => call.id === id);
    if (at === -1) continue;
    const call = item.program.calls[at]!;
    const changed = change(call);
    if (changed === call) return [...transcript];
    const calls = [...item.program.calls.slice(0, at), changed, ...item.program.calls.slice(at + 1)];
    return [
      ...transcript.slice(0, index),
      { ...item, program: { ...item.program, calls } },
      ...transcript.slice(index + 1),
    ];
  }
  return [...transcript];
}

/**
 * Lists a call a program made under its program's item, in sequence order (once: a call listed
 * already stays as it is). A program the transcript does not hold gets an item of its own, from
 * what the call's approval request says of it (`fallback`), so no call is dropped.
 */
function addProgramCall(
  transcript: readonly TranscriptItem[],
  { parent, call }: { parent: ProgramCallOf; call: ProgramCallRecord },
  fallback?: { name: string; source: string },
): TranscriptItem[] {
  let items = [...transcript];
  let index = findTool(items, parent.id);
  if (index === -1) {
    const source = fallback?.source ?? "";
    items.push({
      kind: "tool",
      id: parent.id,
      name: fallback?.name ?? "run_program",
      server: null,
      input: { code: source },
      status: "running",
      program: { source, calls: [] },
    });
    index = items.length - 1;
  }
  let item = items[index] as ToolItem;
  // A vendor's program is known by its calls' `parent`: the first call that brings its runtime and
  // source (the call's own, or an approval item's `parent`) names the card and shows the program.
  if (fallback && fallback.source !== "" && !item.program?.source && !sourceOf(item.input))
    item = {
      ...item,
      name: fallback.name,
      input: { code: fallback.source },
      program: { source: fallback.source, calls: item.program?.calls ?? [] },
    };
  const program = item.program ?? { source: sourceOf(item.input), calls: [] };
  if (program.calls.some((listed) => listed.id === call.id))
    return [...items.slice(0, index), { ...item, program }, ...items.slice(index + 1)];
  const after = program.calls.findIndex((listed) => listed.sequence > call.sequence);
  const calls =
    after === -1
      ? [...program.calls, call]
      : [...program.calls.slice(0, after), call, ...program.calls.slice(after)];
  items = [...items.slice(0, index), { ...item, program: { ...program, calls } }, ...items.slice(index + 1)];
  return items;
}

/** A program call's source from its arguments (`{ code }`), or "" when it has none. */
function sourceOf(input: unknown): string {
  const code = typeof input === "object" && input !== null ? (input as { code?: unknown }).code : undefined;
  return typeof code === "string" ? code : "";
}
