import { createSamplingHandler } from "@junction/core";
import type { CreateMessageRequestParams, CreateMessageResult, ModelProvider } from "@junction/types";
import type { ElicitationBroker } from "./elicitation-broker.js";
import type { ProviderInfo } from "./providers.js";
import type { SamplingBridge } from "./server-registry.js";

/** The most tokens a server's sampling request may have the model write. */
const MAXIMUM_SAMPLING_TOKENS = 4096;

/**
 * Lets servers ask the model (MCP sampling) through the first available provider, only after
 * the person agrees: the request is shown like an elicitation with Accept / Decline, so the
 * page and the CLI ask it the same way, and what is shown is everything the model receives
 * (see {@link describeSamplingRequest}). A server cannot spend tokens unseen.
 */
export function createSamplingBridge(options: {
  elicitation: ElicitationBroker;
  providers(): ProviderInfo[];
  createProvider(id: string): Promise<ModelProvider>;
}): SamplingBridge {
  return async (server: string, request: CreateMessageRequestParams): Promise<CreateMessageResult> => {
    const info = options.providers()[0]!;
    const provider = await options.createProvider(info.id);
    const handler = createSamplingHandler({
      provider,
      model: info.defaultModel,
      maxTokensLimit: MAXIMUM_SAMPLING_TOKENS,
      approve: async (params) => {
        const answer = await options.elicitation.ask(
          server,
          {
            message: describeSamplingRequest(params, {
              server,
              model: `${info.label}, ${info.defaultModel}`,
              maxTokensLimit: MAXIMUM_SAMPLING_TOKENS,
            }),
            requestedSchema: { type: "object", properties: {} },
          },
          "sampling",
        );
        return answer.action === "accept";
      },
    });
    return handler(request);
  };
}

/**
 * Everything a sampling request would give the model, as text for the person to read before
 * accepting: the system prompt and every message in full (nothing cut), images and audio by
 * type and size, the settings passed on, and the input's size in characters and estimated
 * tokens (about four characters a token). What the request carries that the model would not
 * receive is named too. Pure; never throws on a malformed request.
 */
export function describeSamplingRequest(
  request: CreateMessageRequestParams,
  context: { server: string; model: string; maxTokensLimit: number },
): string {
  const sections: string[] = [];
  let characters = 0;
  let media = 0;
  let mediaBytes = 0;
  const systemPrompt = (request as { systemPrompt?: unknown }).systemPrompt;
  if (typeof systemPrompt === "string") {
    characters += systemPrompt.length;
    sections.push(`--- System prompt (${count(systemPrompt.length, "character")}):\n${systemPrompt}`);
  }
  const messages: unknown[] = Array.isArray(request.messages) ? request.messages : [];
  messages.forEach((message, index) => {
    const { role, content } = (typeof message === "object" && message !== null ? message : {}) as {
      role?: unknown;
      content?: unknown;
    };
    const blocks: unknown[] = Array.isArray(content) ? content : [content];
    const parts = blocks.map((block) => {
      const { type, text, data, mimeType } = (typeof block === "object" && block !== null ? block : {}) as {
        type?: unknown;
        text?: unknown;
        data?: unknown;
        mimeType?: unknown;
      };
      if (type === "text" && typeof text === "string") {
        characters += text.length;
        return `(text, ${count(text.length, "character")}):\n${text}`;
      }
      if ((type === "image" || type === "audio") && typeof data === "string") {
        const bytes = base64Bytes(data);
        media++;
        mediaBytes += bytes;
        return `[${type} ${typeof mimeType === "string" ? mimeType : "of no type"}, ${formatBytes(bytes)}]`;
      }
      return `[a ${JSON.stringify(String(type)).slice(0, 60)} block the model cannot take: accepting fails the request]`;
    });
    const who = typeof role === "string" ? role.slice(0, 40) : "no role";
    sections.push(`--- Message ${index + 1} of ${messages.length}, ${who} ${parts.join("\n")}`);
  });
  const settings: string[] = [];
  const { temperature, stopSequences, tools } = request as {
    temperature?: unknown;
    stopSequences?: unknown;
    tools?: unknown;
  };
  if (typeof temperature === "number") settings.push(`temperature ${temperature}`);
  if (Array.isArray(stopSequences)) settings.push(`stop sequences ${JSON.stringify(stopSequences)}`);
  const maxTokens =
    typeof request.maxTokens === "number"
      ? Math.min(request.maxTokens, context.maxTokensLimit)
      : context.maxTokensLimit;
  const tokens = Math.ceil(characters / 4);
  const mediaNote =
    media > 0 ? ` and ${count(media, "image or audio part")} of ${formatBytes(mediaBytes)}` : "";
  const lines = [
    `${context.server} wants to ask the model (${context.model}). Accepting sends it everything below.`,
    `Input: ${count(messages.length, "message")}, ${count(characters, "character")} of text (about ${count(tokens, "token")})${mediaNote}; the answer may use up to ${count(maxTokens, "token")}${settings.length ? `; ${settings.join(", ")}` : ""}.`,
  ];
  if (Array.isArray(tools) && tools.length > 0) {
    lines.push(`The request also offers ${count(tools.length, "tool")}; the model is not given them.`);
  }
  return [...lines, ...sections].join("\n");
}

function count(value: number, noun: string): string {
  return `${value.toLocaleString("en-US")} ${noun}${value === 1 ? "" : "s"}`;
}

function base64Bytes(data: string): number {
  const length = data.replace(/\s/g, "").length;
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((length * 3) / 4) - padding);
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return count(bytes, "byte");
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
