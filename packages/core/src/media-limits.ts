import type {
  MediaLimits,
  Message,
  ModelProvider,
  ToolMessage,
  ToolResult,
  ToolResultMessagePart,
  ToolResultPart,
  UserMessage,
  Warning,
} from "@junction/types";
import { MessageFold } from "./message-fold.js";

/**
 * The per-part media limit where a provider declares none: 5 MiB of decoded data. Conservative:
 * the smallest vendor limits are about 4 MB per image (Anthropic, Bedrock).
 */
export const DEFAULT_MAX_MEDIA_PART_BYTES = 5 * 1024 * 1024;

/** A media part of a tool result, or of a user message, over its provider's limit. */
export interface OversizedMediaPart {
  /** The raw part, as the conversation keeps it. */
  part: ToolResultPart;
  /** The tool result it is in; absent for a part of a user message. */
  toolCallId?: string;
  toolName?: string;
  /** The index of the user message it is in, for a part of a user message. */
  userMessage?: number;
  /** Its index among the parts of the tool result or user message. */
  index: number;
  kind: "image" | "audio" | "document";
  mimeType?: string;
  /** Its decoded size. */
  bytes: number;
  /** The limit it is over. */
  limit: number;
  /** Whether the limit is the provider's declaration or {@link DEFAULT_MAX_MEDIA_PART_BYTES}. */
  declared: boolean;
}

/**
 * The bytes base64 text decodes to, from its length alone (no decoding, so a 30 MB part costs
 * nothing to measure). Whitespace a server put in is counted, which only overestimates.
 */
export function base64DecodedBytes(data: string): number {
  let padding = 0;
  if (data.endsWith("==")) padding = 2;
  else if (data.endsWith("=")) padding = 1;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/**
 * The model-facing view of a conversation: every image, audio or document part over `limits`, of
 * a tool result or of a user message, replaced by a text note the model can act on (a vendor
 * would refuse the whole request for it). Pure, and copy-on-write: messages without such a part
 * are the same objects, so the raw conversation (kept for code, UI and saving) is never changed
 * and nothing large is copied.
 */
export function modelFacingMessages(
  messages: Message[],
  limits: MediaLimits | undefined,
): { messages: Message[]; oversized: OversizedMediaPart[] } {
  const view = startMediaView();
  const options = { messages, limits };
  messages.forEach((message, index) => {
    foldMediaView(view, { message, index }, options);
  });
  return mediaViewOf(view, messages);
}

/** {@link modelFacingMessages} as it is built message by message. */
interface MediaView {
  /** Built only from the first message that changes: most conversations carry no media to replace. */
  messages: Message[] | undefined;
  oversized: OversizedMediaPart[];
}

function startMediaView(): MediaView {
  return { messages: undefined, oversized: [] };
}

function foldMediaView(
  view: MediaView,
  { message, index }: { message: Message; index: number },
  options: { messages: readonly Message[]; limits: MediaLimits | undefined },
): void {
  const { limits } = options;
  const limited =
    message.role === "user"
      ? limitUserMessage({ message, index }, limits, view.oversized)
      : message.role === "tool"
        ? limitToolMessage(message, limits, view.oversized)
        : message;
  if (limited !== message && !view.messages) view.messages = options.messages.slice(0, index);
  view.messages?.push(limited);
}

function mediaViewOf(
  view: MediaView,
  messages: Message[],
): { messages: Message[]; oversized: OversizedMediaPart[] } {
  // A copy of a kept view: a request's messages must not grow with the next step's.
  return { messages: view.messages ? view.messages.slice() : messages, oversized: view.oversized.slice() };
}

/**
 * {@link modelFacingMessages} kept across a run's steps: each step measures only the messages
 * appended since the last (see {@link MessageFold}), with the same view and the same parts found.
 */
export class MediaViewFold {
  #options: { messages: readonly Message[]; limits: MediaLimits | undefined } | undefined;
  readonly #fold = new MessageFold<MediaView>(startMediaView, (view, message, index) =>
    foldMediaView(view, { message, index }, this.#options!),
  );

  /** The model-facing view of `messages` under `limits`, as {@link modelFacingMessages} gives it. */
  view(
    messages: Message[],
    limits: MediaLimits | undefined,
  ): { messages: Message[]; oversized: OversizedMediaPart[] } {
    this.#options = { messages, limits };
    const key = [limits?.maxImageBytes, limits?.maxAudioBytes, limits?.maxDocumentBytes]
      .map((limit) => `${typeof limit}:${String(limit)}`)
      .join();
    return mediaViewOf(this.#fold.over(messages, key), messages);
  }
}

function limitToolMessage(
  message: ToolMessage,
  limits: MediaLimits | undefined,
  oversized: OversizedMediaPart[],
): ToolMessage {
  let content: ToolResultMessagePart[] | undefined;
  message.content.forEach((toolResult, index) => {
    const limited = limitToolResult(toolResult, limits, oversized);
    if (limited !== toolResult) content ??= message.content.slice(0, index);
    content?.push(limited);
  });
  return content ? { ...message, content } : message;
}

/** A part that can be over a media limit: only those are measured. */
function isMediaPart(part: ToolResultPart): boolean {
  return (
    part.type === "image" ||
    part.type === "audio" ||
    (part.type === "resource" && typeof part.resource.blob === "string")
  );
}

function limitToolResult(
  toolResult: ToolResultMessagePart,
  limits: MediaLimits | undefined,
  oversized: OversizedMediaPart[],
): ToolResultMessagePart {
  const output = toolResult.output;
  if (typeof output === "string" || !output.content.some(isMediaPart)) return toolResult;
  let changed = false;
  const content = output.content.map((part, partIndex) => {
    const over = oversizedPart(part, limits);
    if (!over) return part;
    changed = true;
    oversized.push({
      part,
      toolCallId: toolResult.toolCallId,
      toolName: toolResult.toolName,
      index: partIndex,
      ...over,
    });
    return { type: "text" as const, text: noteFor(over) };
  });
  if (!changed) return toolResult;
  const limited: ToolResult = { ...output, content };
  return { ...toolResult, output: limited };
}

function limitUserMessage(
  { message, index }: { message: UserMessage; index: number },
  limits: MediaLimits | undefined,
  oversized: OversizedMediaPart[],
): UserMessage {
  if (typeof message.content === "string" || !message.content.some(isMediaPart)) return message;
  let changed = false;
  const content = message.content.map((part, partIndex) => {
    const over = oversizedPart(part, limits);
    if (!over) return part;
    changed = true;
    oversized.push({ part, userMessage: index, index: partIndex, ...over });
    return {
      type: "text" as const,
      text:
        `[The user's message had ${describePart(over)}, over the ${over.limit}-byte limit for one ${over.kind} ` +
        "sent to this model, so Junction left it out here. Tell the user it was too large to look at.]",
    };
  });
  return changed ? { ...message, content } : message;
}

type Measured = Omit<OversizedMediaPart, "part" | "toolCallId" | "toolName" | "userMessage" | "index">;

function oversizedPart(part: ToolResultPart, limits: MediaLimits | undefined): Measured | undefined {
  let kind: Measured["kind"];
  let data: string;
  let mimeType: string | undefined;
  let declaredLimit: number | undefined;
  if (part.type === "image" || part.type === "audio") {
    kind = part.type;
    data = part.data;
    mimeType = part.mimeType;
    declaredLimit = part.type === "image" ? limits?.maxImageBytes : limits?.maxAudioBytes;
  } else if (part.type === "resource" && typeof part.resource.blob === "string") {
    kind = "document";
    data = part.resource.blob;
    mimeType = part.resource.mimeType;
    declaredLimit = limits?.maxDocumentBytes;
  } else {
    return undefined;
  }
  const declared = typeof declaredLimit === "number" && declaredLimit >= 0;
  const limit = declared ? declaredLimit! : DEFAULT_MAX_MEDIA_PART_BYTES;
  const bytes = base64DecodedBytes(data);
  if (bytes <= limit) return undefined;
  return { kind, bytes, limit, declared, ...(typeof mimeType === "string" ? { mimeType } : {}) };
}

function describePart(part: Pick<OversizedMediaPart, "kind" | "mimeType" | "bytes">): string {
  const type = part.mimeType ? ` (${part.mimeType.slice(0, 100)})` : "";
  const what = { image: "an image", audio: "an audio clip", document: "a document" }[part.kind];
  return `${what}${type} of ${part.bytes} bytes`;
}

function noteFor(part: Measured): string {
  return (
    `[The tool returned ${describePart(part)}, over the ${part.limit}-byte limit for one ${part.kind} ` +
    "sent to this model, so Junction left it out here; the application still has it. If you need to " +
    `see it, ask the tool for a smaller one.]`
  );
}

/** The warning for one oversized part: names the tool (or the user message), the size and the limit. */
export function oversizedMediaWarning(
  part: OversizedMediaPart,
  target: { provider: string; model: string },
): Warning {
  const whose = part.declared
    ? `the limit provider "${target.provider}" declares for model "${target.model}"`
    : `the default limit (provider "${target.provider}" declares none for model "${target.model}")`;
  if (part.toolName === undefined)
    return {
      code: "user-media-too-large",
      message:
        `User message ${part.userMessage} has ${describePart(part)}, over ${part.limit} bytes, ${whose}; ` +
        "the model got a note instead (the conversation keeps the part). Send a smaller one (resize or compress it) for the model to see it.",
    };
  return {
    code: "tool-result-media-too-large",
    message:
      `Tool "${part.toolName}" (call ${part.toolCallId}) returned ${describePart(part)}, over ${part.limit} bytes, ` +
      `${whose}; the model got a note instead. The full result stays in the conversation and the tool-result event.`,
  };
}

// Parts already reported, by where they are (call id or user message, and part) per conversation:
// a part is reported once for as long as a conversation holds it (every step and send() re-derives
// the view, and a run's result makes the messages it added Junction's own, as new objects), and
// forgotten with it.
const reported = new WeakMap<object, Set<string>>();

/**
 * The messages to send `provider`'s `model`: {@link modelFacingMessages} with the limits the
 * provider declares for that model, each oversized part reported through `warn` once.
 */
export function messagesForModel(options: {
  history: Message[];
  /** What a part is reported once against (a conversation that outlives this array). @default `history` */
  reportKey?: object;
  provider: ModelProvider;
  model: string;
  warn: (warning: Warning) => void;
  /** The run's view so far, to measure only the messages appended since. @default measured afresh */
  fold?: MediaViewFold;
}): Message[] {
  const { provider, model } = options;
  const capabilities = provider.capabilitiesFor?.(model) ?? provider.capabilities;
  const limits = capabilities?.mediaLimits;
  const view = options.fold
    ? options.fold.view(options.history, limits)
    : modelFacingMessages(options.history, limits);
  if (view.oversized.length === 0) return view.messages;
  const key = options.reportKey ?? options.history;
  let seen = reported.get(key);
  if (!seen) {
    seen = new Set();
    reported.set(key, seen);
  }
  for (const part of view.oversized) {
    const where = `${part.toolCallId !== undefined ? `call:${part.toolCallId}` : `user:${part.userMessage}`}:${part.index}`;
    if (seen.has(where)) continue;
    seen.add(where);
    options.warn(oversizedMediaWarning(part, { provider: provider.name, model }));
  }
  return view.messages;
}
