import type { ProgramCallRecord, ProgramRecord, TranscriptItem } from "../shared/api-types.js";
import { h, jsonBlock } from "./dom.js";
import { readProgramOutcome } from "./program-outcome.js";
import { renderToolResult } from "./render-content.js";

/** A program call of the transcript (code mode): a tool item with its program. */
export type ProgramItem = Extract<TranscriptItem, { kind: "tool" }> & { program: ProgramRecord };

/** What the chat view gives a program card: whether calls may be answered now, and its approval prompt. */
export interface ProgramCardOptions {
  /** No run is in progress: a call waiting for approval gets its buttons. */
  answerable: boolean;
  /** The chat's approval prompt for `call`, with `beside` (the program's source) next to its arguments. */
  approval(call: ProgramCallRecord, beside: HTMLElement): HTMLElement;
}

/** A source longer than this (lines or characters) starts folded. */
const LONG_SOURCE_LINES = 15;
const LONG_SOURCE_CHARACTERS = 1_500;
/** Arguments shown on a call's line, in characters; the rest is behind "all arguments". */
const ARGUMENTS_LINE_CHARACTERS = 200;

/**
 * The card is drawn again each time the program's item changes (a call starts or ends): the
 * calls that did not change keep their row, and the source its element, so a row or a source the
 * person unfolded stays unfolded, and a long program's card is not rebuilt call by call.
 */
const rows = new WeakMap<ProgramCallRecord, { answerable: boolean; node: HTMLElement }>();
const sources = new WeakMap<object, HTMLElement>();

/**
 * A program call's card: its source (monospace, folded when long), the calls it made listed in
 * sequence order as they come (tool, arguments, outcome, time), and what it returned, logged or
 * failed with once it ended. Every part of it is the model's or a server's data: text nodes only.
 */
export function programCard(item: ProgramItem, options: ProgramCardOptions): HTMLElement {
  const { program } = item;
  const waiting = program.calls.find((call) => call.status === "awaiting-approval");
  const card = h(
    "div",
    { class: "tool-card program-card", testid: "program-card" },
    h(
      "div",
      { class: "tool-card-header" },
      h("span", { class: "tool-name", testid: "tool-card-name" }, item.name),
      h("span", { class: "badge" }, "program"),
      h("span", { class: "tool-status", testid: "program-status" }, programStatus(item, waiting?.sequence)),
    ),
    sourceBlock(item),
    callList(program.calls, options, program.source),
    item.result !== undefined ? outcomeBlock(item.result, item.truncated) : null,
  );
  card.dataset.callId = item.id;
  card.dataset.status = item.status;
  return card;
}

function programStatus(item: ProgramItem, waitingFor: number | undefined): string {
  if (waitingFor !== undefined && item.status === "running")
    return `waiting for approval of call ${waitingFor}`;
  switch (item.status) {
    case "done":
      return `${item.outcome === "success" || item.outcome === undefined ? "done" : item.outcome} in ${item.durationMs ?? "?"} ms`;
    case "running":
      return "running…";
    case "awaiting-approval":
      return "waiting for approval";
    case "denied":
    case "stopped":
      return item.status;
    default: {
      const unknown: never = item.status;
      return String(unknown);
    }
  }
}

/** The program's source, as text in a monospace block; folded when long (kept across redraws). */
function sourceBlock(item: ProgramItem): HTMLElement {
  const key = typeof item.input === "object" && item.input !== null ? item.input : undefined;
  const kept = key ? sources.get(key) : undefined;
  if (kept) return kept;
  const { source } = item.program;
  const lines = source.split("\n").length;
  const details = h(
    "details",
    { class: "program-source", testid: "program-source-toggle" },
    h("summary", { class: "program-summary" }, `source · ${lines} ${lines === 1 ? "line" : "lines"}`),
    h("pre", { class: "program-code", testid: "program-source" }, source),
  );
  (details as HTMLDetailsElement).open =
    lines <= LONG_SOURCE_LINES && source.length <= LONG_SOURCE_CHARACTERS;
  if (key) sources.set(key, details);
  return details;
}

function callList(
  calls: readonly ProgramCallRecord[],
  options: ProgramCardOptions,
  source: string,
): HTMLElement {
  const list = h(
    "div",
    { class: "program-calls", testid: "program-calls" },
    h("div", { class: "label" }, calls.length === 0 ? "no calls yet" : `calls (${calls.length})`),
  );
  for (const call of calls) {
    const kept = rows.get(call);
    if (kept && kept.answerable === options.answerable) {
      list.append(kept.node);
      continue;
    }
    const node = callRow(call, options, source);
    rows.set(call, { answerable: options.answerable, node });
    list.append(node);
  }
  return list;
}

/** One call the program made: its number, tool, arguments, outcome and time; its approval while it waits. */
function callRow(call: ProgramCallRecord, options: ProgramCardOptions, source: string): HTMLElement {
  let shown: string;
  try {
    shown = JSON.stringify(call.input) ?? "undefined";
  } catch {
    shown = String(call.input);
  }
  const cut = shown.length > ARGUMENTS_LINE_CHARACTERS;
  const row = h(
    "div",
    { class: "program-call", testid: "program-call" },
    h(
      "div",
      { class: "program-call-header" },
      h("span", { class: "program-call-sequence", testid: "program-call-sequence" }, `${call.sequence}.`),
      h("span", { class: "tool-name", testid: "program-call-name" }, call.name),
      h(
        "code",
        { class: "program-call-arguments", testid: "program-call-arguments" },
        cut ? `${shown.slice(0, ARGUMENTS_LINE_CHARACTERS)}…` : shown,
      ),
      call.outcome !== undefined
        ? h(
            "span",
            { class: `program-call-outcome ${call.outcome}`, testid: "program-call-outcome" },
            call.outcome,
          )
        : null,
      h("span", { class: "tool-status", testid: "program-call-status" }, callStatus(call)),
    ),
    cut
      ? h("details", {}, h("summary", { class: "program-summary" }, "all arguments"), jsonBlock(call.input))
      : null,
    call.result !== undefined
      ? h(
          "details",
          { class: "program-call-result" },
          h("summary", { class: "program-summary" }, "result"),
          renderToolResult(call.result, undefined, call.truncated),
        )
      : null,
  );
  row.dataset.callId = call.id;
  row.dataset.sequence = String(call.sequence);
  row.dataset.status = call.status;
  if (call.status === "awaiting-approval" && options.answerable)
    row.append(options.approval(call, besideApproval(call, source)));
  return row;
}

function callStatus(call: ProgramCallRecord): string {
  switch (call.status) {
    case "done":
      return `${call.durationMs ?? "?"} ms`;
    case "running":
      return "running…";
    case "awaiting-approval":
      return "waiting for approval";
    case "denied":
    case "stopped":
      return call.status;
    default: {
      const unknown: never = call.status;
      return String(unknown);
    }
  }
}

/**
 * What an approval of a program's call shows beside the call: which call of the program it is,
 * and the program's source as the approval request gave it (the program that will run on), else
 * as the program's own call gave it.
 */
function besideApproval(call: ProgramCallRecord, source: string): HTMLElement {
  return h(
    "div",
    { class: "approval-program" },
    h("div", { class: "label", testid: "approval-sequence" }, `call ${call.sequence} of the program`),
    h("pre", { class: "program-code", testid: "approval-program" }, call.program ?? source),
  );
}

/** What the program returned (as JSON), what it logged, or why it failed. */
function outcomeBlock(result: unknown, truncated: string | undefined): HTMLElement {
  const outcome = readProgramOutcome(result);
  const block = h("div", {
    class: `program-outcome ${outcome.ok ? "ok" : "is-error"}`,
    testid: "program-result",
  });
  if (truncated) block.append(h("div", { class: "warning", testid: "truncation-note" }, truncated));
  if (!outcome.ok) block.append(h("div", { class: "error-mark", testid: "program-error" }, outcome.headline));
  else if (outcome.returned) {
    block.append(
      h("div", { class: "label" }, "returned"),
      jsonBlock(outcome.returned.value, "program-returned"),
    );
  } else block.append(h("div", { testid: "program-returned" }, outcome.headline));
  if (outcome.console !== undefined) {
    block.append(
      h("div", { class: "label" }, "console"),
      h("pre", { class: "program-code", testid: "program-console" }, outcome.console),
    );
  }
  return block;
}
