import type {
  Message,
  ModelProvider,
  ToolMessage,
  ToolResult,
  ToolResultMessagePart,
  ToolResultPart,
  Warning,
} from "@junction/types";
import type { CoreTool } from "./core-tool.js";
import { CORE_TOOL_ANNOTATIONS, coreToolError, coreToolInput, READ_TOOL_RESULT } from "./core-tool.js";
import { MediaViewFold, messagesForModel } from "./media-limits.js";
import { MessageFold } from "./message-fold.js";
import { contextWindowOf, estimatePartTokens, TOKEN_ESTIMATE } from "./token-estimate.js";
import { toolResultText } from "./tool-output.js";

/** The share of the model's context window one tool result may take in the model's view. */
export const TOOL_RESULT_WINDOW_SHARE = 0.1;

/** The least a tool result may take, however small the window: 1,000 tokens. */
export const MIN_TOOL_RESULT_TOKENS = 1_000;

/** How much of one tool result reaches the model. */
export interface ToolResultBudget {
  /** Tokens by Junction's estimator. */
  tokens: number;
  /** Characters of text: the tokens at the JSON rate (3 a token), which errs on the small side for prose. */
  chars: number;
  /** The window it is derived from. */
  contextWindow: number;
}

/** The budget for one tool result on a model with `contextWindow` tokens. */
export function toolResultBudget(contextWindow: number): ToolResultBudget {
  const tokens = Math.max(MIN_TOOL_RESULT_TOKENS, Math.floor(contextWindow * TOOL_RESULT_WINDOW_SHARE));
  return { tokens, chars: tokens * TOKEN_ESTIMATE.charsPerJSONToken, contextWindow };
}

/** A tool result the model sees cut. */
export interface CutToolResult {
  /** The raw result, as the conversation keeps it. */
  part: ToolResultMessagePart;
  /** Characters of text in the raw result, and how many of them the model sees from each end. */
  totalChars: number;
  headChars: number;
  tailChars: number;
  /** Media parts left out because they did not fit. */
  droppedMedia: number;
  /**
   * Characters of JSON of a `structuredContent` left out of the model's view: one beside a text
   * part (which stands for it), whose JSON with the text would go over the budget. 0: none.
   */
  droppedStructuredChars: number;
}

/**
 * The model-facing view of `messages`: every tool result over `budget` cut, its text to a head
 * and a tail with a note between them (naming the read tool when `readable`), and media parts that
 * do not fit left out whole with a note (never cut mid-part). Copy-on-write: messages without a
 * cut result are the same objects, and the raw conversation is never changed.
 */
export function budgetedMessages(options: {
  messages: Message[];
  budget: ToolResultBudget;
  readable: boolean;
}): { messages: Message[]; cut: CutToolResult[] } {
  const view = startBudgetedView();
  options.messages.forEach((message, index) => {
    foldBudgetedView(view, { message, index }, options);
  });
  return budgetedViewOf(view, options.messages);
}

/** {@link budgetedMessages} as it is built message by message. */
interface BudgetedView {
  /** Built only from the first message that changes: most steps change none, and the history is long. */
  messages: Message[] | undefined;
  cut: CutToolResult[];
}

function startBudgetedView(): BudgetedView {
  return { messages: undefined, cut: [] };
}

function foldBudgetedView(
  view: BudgetedView,
  { message, index }: { message: Message; index: number },
  options: { messages: readonly Message[]; budget: ToolResultBudget; readable: boolean },
): void {
  const shown = message.role === "tool" ? budgetedToolMessage(message, options, view.cut) : message;
  if (shown !== message && !view.messages) view.messages = options.messages.slice(0, index);
  view.messages?.push(shown);
}

function budgetedViewOf(
  view: BudgetedView,
  messages: Message[],
): { messages: Message[]; cut: CutToolResult[] } {
  // A copy of a kept view: a request's messages must not grow with the next step's.
  return { messages: view.messages ? view.messages.slice() : messages, cut: view.cut.slice() };
}

/**
 * The model-facing view of a run's conversation kept across its steps: the media view
 * ({@link MediaViewFold}), then {@link budgetedMessages} of it, and whether the raw conversation
 * has a cut result ({@link hasCutResults}), each step working only through the messages appended
 * since the last (see {@link MessageFold}), with the same views and verdicts as measured afresh.
 */
export class ModelViewFolds {
  /** The media view, as {@link messagesForModel} takes it. */
  readonly media = new MediaViewFold();
  #budgeted: { messages: readonly Message[]; budget: ToolResultBudget; readable: boolean } | undefined;
  readonly #budgetedFold = new MessageFold<BudgetedView>(startBudgetedView, (view, message, index) =>
    foldBudgetedView(view, { message, index }, this.#budgeted!),
  );
  #cutBudget: ToolResultBudget | undefined;
  readonly #cutFold = new MessageFold<{ cut: boolean }>(
    () => ({ cut: false }),
    (state, message) => {
      if (!state.cut) state.cut = isCutMessage(message, this.#cutBudget!);
    },
  );

  /** {@link budgetedMessages} of `messages`. */
  budgeted(options: { messages: Message[]; budget: ToolResultBudget; readable: boolean }): {
    messages: Message[];
    cut: CutToolResult[];
  } {
    const { messages, budget, readable } = options;
    this.#budgeted = { messages, budget, readable };
    const view = this.#budgetedFold.over(messages, `${budgetKey(budget)}:${readable}`);
    return budgetedViewOf(view, messages);
  }

  /** {@link hasCutResults} of `history`. */
  hasCutResults(history: Message[], budget: ToolResultBudget): boolean {
    this.#cutBudget = budget;
    return this.#cutFold.over(history, budgetKey(budget)).cut;
  }
}

function budgetKey(budget: ToolResultBudget): string {
  return `${budget.tokens}:${budget.chars}:${budget.contextWindow}`;
}

function budgetedToolMessage(
  message: ToolMessage,
  options: { budget: ToolResultBudget; readable: boolean },
  cut: CutToolResult[],
): ToolMessage {
  let content: ToolResultMessagePart[] | undefined;
  message.content.forEach((part, index) => {
    const view = cutToolResult(part, options);
    if (view) {
      content ??= message.content.slice(0, index);
      cut.push(view.cut);
    }
    content?.push(view ? view.part : part);
  });
  return content ? { ...message, content } : message;
}

function cutToolResult(
  part: ToolResultMessagePart,
  options: { budget: ToolResultBudget; readable: boolean },
): { part: ToolResultMessagePart; cut: CutToolResult } | undefined {
  const { budget } = options;
  const raw = part.output;
  const structuredChars = structuredBesideTextChars(raw);
  if (structuredChars === 0 && textWithinBudget(raw, budget.chars)) return undefined;
  const text = modelFacingText(raw);
  // A structuredContent beside text counts as text does: the view carries it only while both fit.
  const droppedStructuredChars = text.length + structuredChars > budget.chars ? structuredChars : 0;
  const media = typeof raw === "string" ? [] : raw.content.filter(isMedia);
  const mediaTokens = media.map(estimatePartTokens);
  // Text gets at least half the budget when it needs it; media takes the rest, whole parts in order.
  const textNeed = Math.ceil(text.length / TOKEN_ESTIMATE.charsPerJSONToken);
  let mediaRoom = budget.tokens - Math.min(textNeed, Math.floor(budget.tokens / 2));
  const keep = mediaTokens.map((tokens) => {
    if (tokens > mediaRoom) return false;
    mediaRoom -= tokens;
    return true;
  });
  const keptTokens = mediaTokens.reduce((sum, tokens, index) => sum + (keep[index] ? tokens : 0), 0);
  const textChars = (budget.tokens - keptTokens) * TOKEN_ESTIMATE.charsPerJSONToken;
  const droppedMedia = keep.filter((kept) => !kept).length;
  if (text.length <= textChars && droppedMedia === 0 && droppedStructuredChars === 0) return undefined;
  const textCut = text.length > textChars;
  const headChars = textCut ? Math.floor(textChars * 0.75) : text.length;
  const tailChars = textCut ? textChars - headChars : 0;
  const cut: CutToolResult = {
    part,
    totalChars: text.length,
    headChars,
    tailChars,
    droppedMedia,
    droppedStructuredChars,
  };
  const note = textCut ? cutNote(cut, options.readable) : undefined;
  const shownText = note
    ? `${text.slice(0, headChars)}\n\n${note}\n\n${text.slice(text.length - tailChars)}`
    : undefined;
  if (typeof raw === "string") return { part: { ...part, output: shownText ?? raw }, cut };
  if (!textCut && droppedMedia === 0) {
    // Only the structured part is over: the content goes as it is.
    const { structuredContent: _left, ...shown } = raw;
    return { part: { ...part, output: shown }, cut };
  }
  const content: ToolResultPart[] = [];
  if (shownText !== undefined) content.push({ type: "text", text: shownText });
  let mediaIndex = 0;
  for (const entry of raw.content) {
    if (isMedia(entry)) {
      const index = mediaIndex++;
      content.push(keep[index] ? entry : { type: "text", text: droppedNote(entry, mediaTokens[index]!) });
    } else if (shownText === undefined && isText(entry)) {
      content.push(entry);
    } else if (entry.type === "resource_link") {
      content.push(entry);
    }
  }
  const output: ToolResult = { content, isError: raw.isError === true };
  return { part: { ...part, output }, cut };
}

/**
 * Whether `output` is text only (no media, no `structuredContent` standing in for text) and
 * certainly within `chars`, counted without building its text: most results are, and every step
 * checks every result of the conversation. Anything else takes the full count.
 */
function textWithinBudget(output: string | ToolResult, chars: number): boolean {
  if (typeof output === "string") return output.length <= chars;
  let length = 0;
  let hasTextPart = false;
  for (const part of output.content) {
    if (part.type === "text") {
      hasTextPart = true;
      length += part.text.length + 1; // + the separator the joined text may have
    } else if (part.type === "resource" && typeof part.resource.text === "string") {
      length += part.resource.text.length + 1;
    } else if (part.type !== "resource_link") {
      return false;
    }
  }
  if (output.structuredContent !== undefined && !hasTextPart) return false;
  return length <= chars;
}

// The JSON length of each structuredContent seen beside text, measured once: the view is derived
// again every step, and a result's raw output is never changed.
const structuredLengths = new WeakMap<object, number>();

/**
 * The characters of JSON of `output`'s `structuredContent` when a text part stands beside it (the
 * model gets the text; a text-less result's structuredContent is its text, in
 * {@link modelFacingText}); 0 otherwise.
 */
function structuredBesideTextChars(output: string | ToolResult): number {
  if (typeof output === "string" || output.structuredContent === undefined) return 0;
  if (!output.content.some((part) => part.type === "text")) return 0;
  const structured = output.structuredContent;
  if (typeof structured !== "object" || structured === null) return jsonLength(structured);
  let length = structuredLengths.get(structured);
  if (length === undefined) {
    length = jsonLength(structured);
    structuredLengths.set(structured, length);
  }
  return length;
}

function jsonLength(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    // Stored results are plain JSON already (limitStructuredContent); this only guards the view.
    return 0;
  }
}

/**
 * The text of a tool result as providers send it: its text parts and embedded text resources, or,
 * when it has no text part, its `structuredContent` as JSON (every provider's fallback).
 */
export function modelFacingText(output: string | ToolResult): string {
  if (typeof output === "string") return output;
  if (output.structuredContent !== undefined && !output.content.some((part) => part.type === "text")) {
    const text = toolResultText(output);
    let json: string;
    try {
      json = JSON.stringify(output.structuredContent) ?? "";
    } catch {
      // Stored results are plain JSON already (limitStructuredContent); this only guards the view.
      json = "";
    }
    return text.length > 0 ? `${text}\n${json}` : json;
  }
  return toolResultText(output);
}

function isMedia(part: ToolResultPart): boolean {
  return (
    part.type === "image" ||
    part.type === "audio" ||
    (part.type === "resource" && part.resource.text === undefined)
  );
}

function isText(part: ToolResultPart): boolean {
  return part.type === "text" || (part.type === "resource" && part.resource.text !== undefined);
}

function cutNote(cut: CutToolResult, readable: boolean): string {
  const { totalChars, headChars, tailChars } = cut;
  const read = readable
    ? ` Read the rest with the ${READ_TOOL_RESULT} tool: {"toolCallId": ${JSON.stringify(cut.part.toolCallId)}, "offset": ${headChars}}.`
    : "";
  return (
    `[Junction cut this tool result to fit the model's context window: it has ${totalChars} characters of text; ` +
    `characters 0–${headChars} are above and ${totalChars - tailChars}–${totalChars} below.${read}]`
  );
}

function droppedNote(part: ToolResultPart, tokens: number): string {
  const what =
    part.type === "image"
      ? `an image (${part.mimeType.slice(0, 100)})`
      : part.type === "audio"
        ? `an audio clip (${part.mimeType.slice(0, 100)})`
        : "a document";
  return `[The tool returned ${what} of about ${tokens} tokens that did not fit this model's budget for one tool result, so Junction left it out here; the application still has it.]`;
}

// Results already reported, by call id per conversation: each is reported once for as long as a
// conversation holds it (the view is derived again every step, sometimes as new objects).
const reported = new WeakMap<object, Set<string>>();

/**
 * The messages to send `provider`'s `model`: media over the provider's per-part limits replaced
 * by notes ({@link messagesForModel}), then every tool result cut to the budget the model's window
 * gives ({@link budgetedMessages}); each cut result reported through `warn` once.
 */
export function messagesWithinBudget(options: {
  history: Message[];
  /** What a part is reported once against (a conversation that outlives this array). @default `history` */
  reportKey?: object;
  provider: ModelProvider;
  model: string;
  readable: boolean;
  warn: (warning: Warning) => void;
  /** The run's views so far, to work only through the messages appended since. @default built afresh */
  folds?: ModelViewFolds;
}): Message[] {
  const budget = toolResultBudget(contextWindowOf(options.provider, options.model));
  const { folds, ...rest } = options;
  const media = messagesForModel({ ...rest, ...(folds ? { fold: folds.media } : {}) });
  const view = folds
    ? folds.budgeted({ messages: media, budget, readable: options.readable })
    : budgetedMessages({ messages: media, budget, readable: options.readable });
  const key = options.reportKey ?? options.history;
  let seen = reported.get(key);
  if (!seen) {
    seen = new Set();
    reported.set(key, seen);
  }
  for (const cut of view.cut) {
    if (seen.has(cut.part.toolCallId)) continue;
    seen.add(cut.part.toolCallId);
    options.warn(cutWarning(cut, { budget, model: options.model, readable: options.readable }));
  }
  return view.messages;
}

function cutWarning(
  cut: CutToolResult,
  target: { budget: ToolResultBudget; model: string; readable: boolean },
): Warning {
  const { part } = cut;
  if (cut.headChars === cut.totalChars && cut.droppedMedia === 0) {
    return {
      code: "tool-result-cut",
      message:
        `Tool "${part.toolName}" (call ${part.toolCallId}) returned a structuredContent of ${cut.droppedStructuredChars} characters of JSON beside its text, ` +
        `more than the ${target.budget.tokens}-token budget for one tool result on model "${target.model}" (${TOOL_RESULT_WINDOW_SHARE * 100}% of its ` +
        `${target.budget.contextWindow}-token window) leaves room for: the model was sent the text (${cut.totalChars} characters), which stands for it, ` +
        "and not the structuredContent. The full result stays in the conversation and the tool-result event.",
    };
  }
  const dropped = cut.droppedMedia > 0 ? `; ${cut.droppedMedia} media part(s) were left out` : "";
  return {
    code: "tool-result-cut",
    message:
      `Tool "${part.toolName}" (call ${part.toolCallId}) returned more than the ${target.budget.tokens}-token budget for one tool result ` +
      `on model "${target.model}" (${TOOL_RESULT_WINDOW_SHARE * 100}% of its ${target.budget.contextWindow}-token window): the model saw ` +
      `the first ${cut.headChars} and last ${cut.tailChars} of ${cut.totalChars} characters${dropped}` +
      `${target.readable ? ` and can read the rest with ${READ_TOOL_RESULT}` : ""}. The full result stays in the conversation and the tool-result event.`,
  };
}

/** Whether any tool result in `history` is cut for a model with `budget`. */
export function hasCutResults(history: Message[], budget: ToolResultBudget): boolean {
  return history.some((message) => isCutMessage(message, budget));
}

function isCutMessage(message: Message, budget: ToolResultBudget): boolean {
  const options = { budget, readable: false };
  // A structuredContent left out beside its text is not a reason to page: the text is whole.
  return (
    message.role === "tool" &&
    message.content.some((part) => {
      const cut = cutToolResult(part, options)?.cut;
      return cut !== undefined && (cut.headChars < cut.totalChars || cut.droppedMedia > 0);
    })
  );
}

/**
 * The tool the model pages through a cut result with: by call id and character offset, a page of
 * the raw result's text at a time (a page fits the budget, so it is never cut itself).
 */
export function readToolResultTool(history: Message[], budget: ToolResultBudget): CoreTool {
  const pageChars = Math.max(500, budget.chars - 400);
  return {
    definition: {
      name: READ_TOOL_RESULT,
      description:
        "Reads more of a tool result that was cut to fit your context window. Give the result's toolCallId and the character offset to start at (the cut result's note says where the shown head ends); " +
        `each call returns up to ${pageChars} characters and the offset of the next page.`,
      inputSchema: {
        type: "object",
        properties: {
          toolCallId: { type: "string", description: "The id of the call whose result was cut." },
          offset: { type: "integer", minimum: 0, description: "The character to start reading at." },
        },
        required: ["toolCallId", "offset"],
        additionalProperties: false,
      },
      annotations: CORE_TOOL_ANNOTATIONS,
    },
    execute: (input) => {
      const { toolCallId, offset } = coreToolInput(input);
      if (
        typeof toolCallId !== "string" ||
        typeof offset !== "number" ||
        !Number.isInteger(offset) ||
        offset < 0
      ) {
        return coreToolError(
          `${READ_TOOL_RESULT} needs {"toolCallId": string, "offset": a whole number from 0}.`,
        );
      }
      const raw = findResult(history, toolCallId);
      if (!raw)
        return coreToolError(
          `There is no tool result with the call id ${JSON.stringify(toolCallId.slice(0, 200))} in this conversation.`,
        );
      const text = modelFacingText(raw.output);
      if (offset >= text.length && text.length > 0) {
        return coreToolError(
          `The result of call ${toolCallId} has ${text.length} characters; offset ${offset} is past its end.`,
        );
      }
      const end = Math.min(text.length, offset + pageChars);
      const next = end < text.length ? `next page: offset ${end}` : "this is the end";
      return `[Characters ${offset}–${end} of ${text.length} of the result of call ${toolCallId}; ${next}.]\n${text.slice(offset, end)}`;
    },
  };
}

function findResult(history: Message[], toolCallId: string): ToolResultMessagePart | undefined {
  for (let index = history.length - 1; index >= 0; index--) {
    const message = history[index]!;
    if (message.role !== "tool") continue;
    const found = message.content.find((part) => part.toolCallId === toolCallId);
    if (found) return found;
  }
  return undefined;
}
