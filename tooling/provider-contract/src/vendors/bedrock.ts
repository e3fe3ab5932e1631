import { bedrock } from "@junction/provider-bedrock";
import {
  type BedrockFrame,
  type BedrockReply,
  bedrockError,
  bedrockEvent,
  bedrockException,
  startBedrockFake,
} from "@junction/wire-fake/bedrock";
import { scriptContext } from "../sse-vendor-fake.ts";
import type {
  FoundImage,
  HeldStream,
  ScriptContext,
  ScriptedReply,
  ScriptedTurn,
  VendorAdapter,
  VendorFake,
} from "../vendor-adapter.ts";

const model = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";

const credentials = { accessKeyId: "AKIDCONTRACT", secretAccessKey: "contract-secret" };

const stopReasons = {
  stop: "end_turn",
  "tool-calls": "tool_use",
  length: "max_tokens",
  refusal: "content_filtered",
} as const;

/**
 * A ConverseStream answer as event-stream frames (see the provider's recorded fixtures): text and
 * reasoning blocks open with their first delta, tool calls with `contentBlockStart`; `messageStop`
 * carries the stop reason and `metadata` (after it) the usage.
 */
function turnFrames(turn: ScriptedTurn, context: ScriptContext): BedrockFrame[] {
  const frames = [bedrockEvent("messageStart", { role: "assistant" })];
  let contentBlockIndex = 0;
  const stop = () =>
    frames.push(bedrockEvent("contentBlockStop", { contentBlockIndex: contentBlockIndex++ }));
  const delta = (value: Record<string, unknown>) =>
    frames.push(bedrockEvent("contentBlockDelta", { contentBlockIndex, delta: value }));
  if (turn.reasoning) {
    for (const text of turn.reasoning) delta({ reasoningContent: { text } });
    delta({ reasoningContent: { signature: "c2lnbmF0dXJlLWZvci10aGUtY29udHJhY3Q=" } });
    stop();
  }
  if (turn.text) {
    for (const text of turn.text) delta({ text });
    stop();
  }
  for (const call of turn.toolCalls ?? []) {
    frames.push(
      bedrockEvent("contentBlockStart", {
        contentBlockIndex,
        start: { toolUse: { toolUseId: call.id, name: context.vendorToolName(call.name) } },
      }),
    );
    for (const input of call.argumentPieces) delta({ toolUse: { input } });
    stop();
  }
  const { inputTokens, outputTokens } = turn.usage;
  frames.push(
    bedrockEvent("messageStop", { stopReason: stopReasons[turn.finish] }),
    bedrockEvent("metadata", {
      metrics: { latencyMs: 240 },
      usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
    }),
  );
  return frames;
}

const errorTypes: Record<number, string> = {
  400: "ValidationException",
  429: "ThrottlingException",
  500: "InternalServerException",
  503: "ServiceUnavailableException",
};

function render(reply: ScriptedReply, context: ScriptContext): BedrockReply {
  switch (reply.kind) {
    case "turn":
      return { frames: turnFrames(reply.turn, context) };
    case "http-error":
      return bedrockError(reply.status, errorTypes[reply.status] ?? "InternalServerException", reply.message);
    case "stream-error":
      return {
        frames: [
          bedrockEvent("messageStart", { role: "assistant" }),
          bedrockEvent("contentBlockDelta", { contentBlockIndex: 0, delta: { text: reply.text } }),
          bedrockException("modelStreamErrorException", { message: reply.message }),
        ],
      };
    default: {
      const unknown: never = reply;
      return unknown;
    }
  }
}

async function startFake(): Promise<VendorFake> {
  const fake = await startBedrockFake();
  return {
    url: fake.url,
    requests: fake.requests,
    enqueue: (...replies) =>
      fake.enqueue(
        ...replies.map(
          (reply) => (request: Parameters<typeof scriptContext>[0]) =>
            render(
              reply,
              scriptContext(request, toolNames, reply.kind === "turn" ? (reply.tools ?? []) : []),
            ),
        ),
      ),
    close: () => fake.close(),
  };
}

/** The frames up to the first text delta, then the HTTP/2 stream held open until the client goes. */
async function startHeldStream(turn: ScriptedTurn): Promise<HeldStream> {
  const fake = await startBedrockFake();
  const frames = turnFrames(turn, { vendorToolName: (name) => name });
  const firstText = frames.findIndex((frame) => frame.type === "contentBlockDelta");
  let markClosed!: () => void;
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });
  fake.enqueue({ frames: frames.slice(0, firstText + 1), ending: "hold", onClose: () => markClosed() });
  return { url: fake.url, requests: fake.requests, closed, close: () => fake.close() };
}

function toolNames(body: unknown): string[] {
  const tools =
    (body as { toolConfig?: { tools?: { toolSpec?: { name: string } }[] } }).toolConfig?.tools ?? [];
  return tools.flatMap((tool) => (tool.toolSpec ? [tool.toolSpec.name] : []));
}

type Block = {
  image?: { format: string; source: { bytes: string } };
  toolResult?: { content: Block[] };
};

function toolResultImages(body: unknown): { native: FoundImage[]; elsewhere: FoundImage[] } {
  const found = { native: [] as FoundImage[], elsewhere: [] as FoundImage[] };
  // The Converse JSON body carries image bytes as base64.
  const image = (block: Block): FoundImage | undefined =>
    block.image ? { mimeType: `image/${block.image.format}`, data: block.image.source.bytes } : undefined;
  for (const message of (body as { messages: { content: Block[] }[] }).messages) {
    for (const block of message.content) {
      const outside = image(block);
      if (outside) found.elsewhere.push(outside);
      for (const inner of block.toolResult?.content ?? []) {
        const inside = image(inner);
        if (inside) found.native.push(inside);
      }
    }
  }
  return found;
}

/**
 * Amazon Bedrock's Converse API through `@aws-sdk/client-bedrock-runtime`, against the HTTP/2
 * event-stream fake. No missing-key case: credentials come from the AWS SDK's provider chain.
 */
export const bedrockVendor: VendorAdapter = {
  name: "bedrock",
  displayName: "Bedrock",
  model,
  createProvider: ({ baseURL, maxRetries }) =>
    bedrock({ region: "us-east-1", credentials, baseURL, maxRetries }),
  startFake,
  startHeldStream,
  wire: {
    toolCallIds: "wire",
    argumentDeltas: "pieces",
    reasoningTokens: "never",
    toolNamePattern: /^[a-zA-Z0-9_-]{1,64}$/,
  },
  toolNames,
  structuredOutput: {
    format: (body) => (body as { outputConfig?: { textFormat?: unknown } }).outputConfig?.textFormat,
    expected: (schema) => ({
      type: "json_schema",
      structure: { jsonSchema: { schema: JSON.stringify(schema), name: "answer" } },
    }),
    documentation:
      "https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_OutputFormat.html (outputConfig.textFormat: type json_schema, structure.jsonSchema.schema as a JSON string)",
  },
  toolResultImages,
};
