import { isDeeplyFrozen } from "@junction/provider-utils";
import type { Message, Warning } from "@junction/types";
import {
  type ConvertToChatCompletionsMessagesOptions,
  convertChatCompletionsMessage,
} from "./convert-to-chatcompletions-messages.js";

/**
 * Where a model keeps the JSON of the frozen messages its requests began with, for a later request
 * to reuse while it begins with the same messages: every step of a run, and every run of a
 * long-lived Agent, sends the whole conversation again. The text is as large as the conversation,
 * so it is never kept longer than that conversation's run, or than the garbage collector allows.
 */
export interface ChatCompletionsMessagesCache {
  /**
   * By the array a request's messages came in: an Agent passes its run's own array on every step
   * of the run, so the text lives as long as the run (and a caller's own array, as long as that).
   */
  byArray: WeakMap<readonly Message[], SentMessages>;
  /** The last request's, held weakly: the next run of a long-lived Agent comes with a new array. */
  last?: WeakRef<SentMessages>;
}

/** An empty {@link ChatCompletionsMessagesCache}: one per model. */
export function createChatCompletionsMessagesCache(): ChatCompletionsMessagesCache {
  return { byArray: new WeakMap() };
}

/** The deeply frozen messages a request began with, as they were sent. */
interface SentMessages {
  messages: readonly Message[];
  /** Their Chat Completions messages as JSON, separated by commas, without brackets ("" for none). */
  json: string;
  warnings: readonly Warning[];
  providerName: string;
  echoReasoning: boolean;
  /** The name each tool called in them was sent under: the text holds while each maps the same. */
  vendorNames: ReadonlyMap<string, string>;
}

/**
 * The Chat Completions `messages` array of {@link convertToChatCompletionsMessages} as JSON: exactly
 * the text `JSON.stringify` gives for it, with the same warnings in the same order. Given a cache,
 * the deeply frozen messages this request begins with are kept there as JSON, and a later request
 * that begins with the same message objects (frozen, so unchanged) reuses that text instead of
 * converting and stringifying them again.
 */
export function serializeChatCompletionsMessages(
  options: ConvertToChatCompletionsMessagesOptions,
  cache?: ChatCompletionsMessagesCache,
): { json: string; warnings: Warning[] } {
  const { messages } = options;
  const echoReasoning = options.echoReasoning ?? false;
  const warnings: Warning[] = [];
  let json =
    options.system !== undefined && options.system !== ""
      ? JSON.stringify({ role: "system", content: options.system })
      : "";

  const sent = cache?.byArray.get(messages) ?? cache?.last?.deref();
  const reused = sent !== undefined && leads(sent, options, echoReasoning) ? sent : undefined;
  let start = 0;
  if (reused) {
    json = joinJSON(json, reused.json);
    for (const warning of reused.warnings) warnings.push({ ...warning });
    start = reused.messages.length;
  }
  if (cache) {
    // The frozen messages after the reused ones join them in the cache.
    let end = start;
    while (end < messages.length && isDeeplyFrozen(messages[end])) end++;
    if (end > start) {
      const frozen = serializeRange(messages, { start, end }, options);
      json = joinJSON(json, frozen.json);
      warnings.push(...frozen.warnings);
      const vendorNames = new Map(reused?.vendorNames);
      for (let index = start; index < end; index++) {
        const message = messages[index]!;
        if (message.role !== "assistant") continue;
        for (const part of message.content)
          if (part.type === "tool-call") vendorNames.set(part.name, options.toolNames.toVendor(part.name));
      }
      const kept: SentMessages = {
        messages: messages.slice(0, end),
        json: joinJSON(reused?.json ?? "", frozen.json),
        warnings: [...(reused?.warnings ?? []), ...frozen.warnings],
        providerName: options.providerName,
        echoReasoning,
        vendorNames,
      };
      cache.byArray.set(messages, kept);
      cache.last = new WeakRef(kept);
      start = end;
    }
  }
  const rest = serializeRange(messages, { start, end: messages.length }, options);
  json = joinJSON(json, rest.json);
  warnings.push(...rest.warnings);
  return { json: `[${json}]`, warnings };
}

/** Whether `sent` was made with these options and `options.messages` begins with its messages. */
function leads(
  sent: SentMessages,
  options: ConvertToChatCompletionsMessagesOptions,
  echoReasoning: boolean,
): boolean {
  if (sent.providerName !== options.providerName || sent.echoReasoning !== echoReasoning) return false;
  if (sent.messages.length > options.messages.length) return false;
  for (const [name, vendorName] of sent.vendorNames)
    if (options.toolNames.toVendor(name) !== vendorName) return false;
  for (let index = 0; index < sent.messages.length; index++)
    if (sent.messages[index] !== options.messages[index]) return false;
  return true;
}

/** Messages `start` to `end` as JSON wire messages, separated by commas, without brackets. */
function serializeRange(
  messages: readonly Message[],
  range: { start: number; end: number },
  options: ConvertToChatCompletionsMessagesOptions,
): { json: string; warnings: Warning[] } {
  const warnings: Warning[] = [];
  const wire: unknown[] = [];
  for (let index = range.start; index < range.end; index++)
    for (const item of convertChatCompletionsMessage(messages[index]!, options, warnings)) wire.push(item);
  return { json: wire.length === 0 ? "" : JSON.stringify(wire).slice(1, -1), warnings };
}

/** Two comma-separated lists of JSON values as one. */
function joinJSON(first: string, second: string): string {
  if (first === "") return second;
  return second === "" ? first : `${first},${second}`;
}
