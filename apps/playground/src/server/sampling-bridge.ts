import { createSamplingHandler } from "@junction/core";
import type { CreateMessageRequestParams, CreateMessageResult, ModelProvider } from "@junction/types";
import type { ElicitationBroker } from "./elicitation-broker.js";
import type { ProviderInfo } from "./providers.js";
import type { SamplingBridge } from "./server-registry.js";

/**
 * Lets servers ask the model (MCP sampling) through the first available provider, only after
 * the person agrees: the request is shown like an elicitation with Accept / Decline, so the
 * page and the CLI ask it the same way. A server cannot spend tokens unseen.
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
      maxTokensLimit: 4096,
      approve: async (params) => {
        const answer = await options.elicitation.ask(server, {
          message: `${server} wants to ask the model (${info.label}, ${info.defaultModel}): ${describe(params)}`,
          requestedSchema: { type: "object", properties: {} },
        });
        return answer.action === "accept";
      },
    });
    return handler(request);
  };
}

function describe(request: CreateMessageRequestParams): string {
  const texts = request.messages.flatMap((message) => {
    const content = Array.isArray(message.content) ? message.content : [message.content];
    return content.flatMap((block) =>
      block.type === "text" ? [`${message.role}: ${block.text}`] : [`${message.role}: [${block.type}]`],
    );
  });
  const text = texts.join(" · ");
  return `${text.length > 400 ? `${text.slice(0, 400)}…` : text} (up to ${request.maxTokens} tokens)`;
}
