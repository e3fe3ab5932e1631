import {
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type FinishReason,
  JunctionError,
  type Message,
  type ModelProvider,
  ProviderError,
  type UserContentPart,
  type Warning,
} from "@junction/types";
import { messagesForModel } from "./media-limits.js";

/** What `createSamplingHandler()` takes. */
export interface SamplingHandlerOptions {
  /** The provider that answers the server's requests. */
  provider: ModelProvider;
  /** The model id, or a function choosing one from the server's model preferences. */
  model: string | ((preferences: CreateMessageRequestParams["modelPreferences"]) => string);
  /**
   * Asked before each request reaches the model (show the user what the server wants to send).
   * Returning `false` refuses it: the server gets an error.
   */
  approve?: (request: CreateMessageRequestParams) => boolean | Promise<boolean>;
  /** Upper bound on the tokens a server may ask for. */
  maxTokensLimit?: number;
  /** Told about anything the bridge could not pass on (tools offered by the server, for example). */
  onWarning?: (warning: Warning) => void;
}

/**
 * Answers MCP `sampling/createMessage` requests with a real provider: pass the result as a
 * connection's `handlers.sampling`. The server's messages, system prompt, temperature, stop
 * sequences and token limit go to the model; its text comes back as the answer.
 *
 * @example
 * ```ts
 * const sampling = createSamplingHandler({ provider: anthropic(), model: "claude-haiku-5-5",
 *   approve: async (request) => confirm(`Let the server ask the model ${request.messages.length} messages?`) });
 * const server = new MCP({ transport: "stdio", command: "my-server", handlers: { sampling } });
 * ```
 */
export function createSamplingHandler(
  options: SamplingHandlerOptions,
): (request: CreateMessageRequestParams) => Promise<CreateMessageResult> {
  return async (request) => {
    if (typeof request !== "object" || request === null || !Array.isArray(request.messages)) {
      throw new JunctionError("invalid-argument", "Sampling request without a `messages` array.");
    }
    if (options.approve && !(await options.approve(request))) {
      throw new JunctionError("tool-denied", "The user declined the server's sampling request.");
    }
    if (Array.isArray(request.tools) && request.tools.length > 0) {
      options.onWarning?.({
        code: "sampling-tools-unsupported",
        message: `The server offered ${request.tools.length} tools with its sampling request; they were not offered to the model.`,
      });
    }
    const model =
      typeof options.model === "function" ? options.model(request.modelPreferences) : options.model;
    // The server's media over the model's per-part limits reaches the model as a note, as in a run.
    const messages = messagesForModel({
      history: request.messages.map(toMessage),
      provider: options.provider,
      model,
      warn: (warning) => options.onWarning?.(warning),
    });
    const maxTokens =
      typeof request.maxTokens === "number"
        ? Math.min(request.maxTokens, options.maxTokensLimit ?? Number.POSITIVE_INFINITY)
        : options.maxTokensLimit;
    let text = "";
    let reason: FinishReason | undefined;
    for await (const event of options.provider.stream({
      model,
      messages,
      ...(typeof request.systemPrompt === "string" ? { system: request.systemPrompt } : {}),
      ...(maxTokens !== undefined ? { maxTokens } : {}),
      ...(typeof request.temperature === "number" ? { temperature: request.temperature } : {}),
      ...(Array.isArray(request.stopSequences) ? { stopSequences: request.stopSequences } : {}),
    })) {
      if (event.type === "finish") {
        reason = event.reason;
        text = event.content
          .filter((part) => part.type === "text")
          .map((part) => part.text)
          .join("");
      } else if (event.type === "warning") {
        options.onWarning?.(event.warning);
      }
    }
    if (reason === undefined) {
      throw new ProviderError({
        provider: options.provider.name,
        code: "provider-response-invalid",
        message: `The ${options.provider.name} stream ended without a finish event.`,
      });
    }
    return { model, role: "assistant", content: { type: "text", text }, stopReason: stopReasonOf(reason) };
  };
}

function stopReasonOf(reason: FinishReason): string {
  switch (reason) {
    case "stop":
      return "endTurn";
    case "length":
      return "maxTokens";
    case "tool-calls":
      return "toolUse";
    case "content-filter":
    case "error":
    case "other":
      return reason;
    default: {
      const unknown: never = reason;
      return String(unknown);
    }
  }
}

function toMessage(message: CreateMessageRequestParams["messages"][number], index: number): Message {
  const blocks = Array.isArray(message?.content) ? message.content : [message?.content];
  if (message?.role === "user") {
    const parts: UserContentPart[] = blocks.map((block) => {
      if (block?.type === "text" && typeof block.text === "string") return { type: "text", text: block.text };
      if ((block?.type === "image" || block?.type === "audio") && typeof block.data === "string") {
        return { type: block.type, data: block.data, mimeType: block.mimeType };
      }
      throw unsupported(index, block);
    });
    return { role: "user", content: parts };
  }
  if (message?.role === "assistant") {
    return {
      role: "assistant",
      content: blocks.map((block) => {
        if (block?.type === "text" && typeof block.text === "string")
          return { type: "text", text: block.text };
        throw unsupported(index, block);
      }),
    };
  }
  throw new JunctionError(
    "invalid-argument",
    `Sampling message ${index} has an unknown role ${JSON.stringify(message?.role)}.`,
  );
}

function unsupported(index: number, block: unknown): JunctionError {
  const type = (block as { type?: unknown } | undefined)?.type;
  return new JunctionError(
    "invalid-argument",
    `Sampling message ${index} has a content block the bridge cannot pass to a model (${JSON.stringify(type)}).`,
  );
}
