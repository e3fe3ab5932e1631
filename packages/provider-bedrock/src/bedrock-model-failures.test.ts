// Failures, credentials and abort: the real AWS SDK against the Bedrock event-stream fake.
import type { ModelRequest, ModelStreamEvent } from "@junction/types";
import { JunctionError, ProviderError } from "@junction/types";
import {
  type BedrockFake,
  bedrockError,
  bedrockEvent,
  bedrockException,
  readBedrockFixture,
  startBedrockFake,
} from "@junction/wire-fake/bedrock";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type BedrockSettings, bedrock } from "./bedrock-provider.js";

const fixture = (name: string) => readBedrockFixture(new URL(`./__fixtures__/${name}`, import.meta.url));

const credentials = { accessKeyId: "AKIDFAKEBEDROCK", secretAccessKey: "fake-secret" };

let fake: BedrockFake;
beforeEach(async () => {
  fake = await startBedrockFake();
});
afterEach(async () => {
  await fake.close();
});

function provider(settings: BedrockSettings = {}) {
  return bedrock({ region: "us-east-1", credentials, baseURL: fake.url, ...settings });
}

async function collect(stream: AsyncIterable<ModelStreamEvent>) {
  const events: ModelStreamEvent[] = [];
  try {
    for await (const event of stream) events.push(event);
  } catch (error) {
    return { events, error: error as Error };
  }
  return { events, error: undefined };
}

const model = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";

const textFinish = {
  type: "finish",
  reason: "stop",
  rawReason: "end_turn",
  usage: { inputTokens: 14, outputTokens: 11, totalTokens: 25 },
  content: [{ type: "text", text: "Hello! How can I help you today?" }],
};

describe("bedrock provider failures", () => {
  const request: ModelRequest = { model, messages: [{ role: "user", content: "Hi" }] };

  it("throws a ValidationException as a non-retryable 400 with the request id, without retrying", async () => {
    fake.enqueue(
      bedrockError(
        400,
        "ValidationException",
        "The model returned the following errors: messages: at least one message is required",
      ),
    );
    const { events, error } = await collect(provider().stream(request));
    expect(events).toEqual([]);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: "provider-api-error",
      provider: "bedrock",
      status: 400,
      retryable: false,
      requestId: "fake-request-1",
      message:
        "Bedrock API error 400 (ValidationException: The model returned the following errors: messages: at least one message is required).",
    });
    expect(fake.requests).toHaveLength(1);
  });

  it("throws AccessDenied and ResourceNotFound as non-retryable", async () => {
    fake.enqueue(
      bedrockError(
        403,
        "AccessDeniedException",
        "You don't have access to the model with the specified model ID.",
      ),
      bedrockError(404, "ResourceNotFoundException", "Model not found."),
    );
    const denied = await collect(provider().stream(request));
    const missing = await collect(provider().stream(request));
    expect(denied.error).toMatchObject({ status: 403, retryable: false, requestId: "fake-request-1" });
    expect(missing.error).toMatchObject({ status: 404, retryable: false, requestId: "fake-request-2" });
    expect(fake.requests).toHaveLength(2);
  });

  it("retries a ThrottlingException (429) through the SDK and streams the second answer", async () => {
    fake.enqueue(
      bedrockError(429, "ThrottlingException", "Too many requests, please wait before trying again."),
      {
        frames: fixture("bedrock-text.jsonl"),
      },
    );
    const { events, error } = await collect(provider().stream(request));
    expect(error).toBeUndefined();
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1]!.body).toEqual(fake.requests[0]!.body);
    expect(events.at(-1)).toEqual(textFinish);
  });

  it("throws a retryable 429 once the retries are spent", async () => {
    const throttled = bedrockError(
      429,
      "ThrottlingException",
      "Too many requests, please wait before trying again.",
    );
    fake.enqueue(throttled, throttled);
    const { error } = await collect(provider({ maxRetries: 1 }).stream(request));
    expect(fake.requests).toHaveLength(2);
    expect(error).toMatchObject({
      code: "provider-api-error",
      status: 429,
      retryable: true,
      requestId: "fake-request-2",
      message:
        "Bedrock API error 429 (ThrottlingException: Too many requests, please wait before trying again.).",
    });
  });

  it("throws 5xx exceptions as retryable", async () => {
    fake.enqueue(
      bedrockError(503, "ServiceUnavailableException", "Bedrock is unable to process your request."),
      bedrockError(500, "InternalServerException", "An internal server error occurred."),
    );
    const unavailable = await collect(provider({ maxRetries: 0 }).stream(request));
    const internal = await collect(provider({ maxRetries: 0 }).stream(request));
    expect(unavailable.error).toMatchObject({ code: "provider-api-error", status: 503, retryable: true });
    expect(internal.error).toMatchObject({ code: "provider-api-error", status: 500, retryable: true });
    expect(fake.requests).toHaveLength(2);
  });

  it("throws an exception sent inside the stream, after the events before it", async () => {
    const frames = fixture("bedrock-text.jsonl").slice(0, 2);
    fake.enqueue({
      frames: [
        ...frames,
        bedrockException("modelStreamErrorException", { message: "The model stream failed." }),
      ],
    });
    const { events, error } = await collect(provider().stream(request));
    expect(events).toEqual([{ type: "text-delta", text: "Hello" }]);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: "provider-stream-error",
      provider: "bedrock",
      retryable: true,
      requestId: "fake-request-1",
      message:
        "Bedrock sent an error inside the stream (ModelStreamErrorException: The model stream failed.).",
    });
    expect((error as ProviderError).status).toBeUndefined();
  });

  it("throws a validationException inside the stream as not retryable", async () => {
    fake.enqueue({
      frames: [
        ...fixture("bedrock-text.jsonl").slice(0, 1),
        bedrockException("validationException", { message: "Input is too long for requested model." }),
      ],
    });
    const { error } = await collect(provider().stream(request));
    expect(error).toMatchObject({ code: "provider-stream-error", retryable: false });
  });

  it("throws when the stream ends before messageStop", async () => {
    fake.enqueue({ frames: fixture("bedrock-text.jsonl").slice(0, 3) });
    const { events, error } = await collect(provider().stream(request));
    expect(events).toEqual([
      { type: "text-delta", text: "Hello" },
      { type: "text-delta", text: "! How can I" },
    ]);
    expect(error).toMatchObject({
      code: "provider-stream-error",
      retryable: true,
      message: "The Bedrock stream ended before messageStop: the response is incomplete.",
    });
  });

  it("throws a retryable stream error when the HTTP/2 stream is reset mid-answer", async () => {
    fake.enqueue({ frames: fixture("bedrock-text.jsonl").slice(0, 3), frameDelayMs: 20, ending: "reset" });
    const { events, error } = await collect(provider({ maxRetries: 0 }).stream(request));
    expect(events).toEqual([
      { type: "text-delta", text: "Hello" },
      { type: "text-delta", text: "! How can I" },
    ]);
    expect(fake.requests).toHaveLength(1);
    expect(error).toMatchObject({
      code: "provider-stream-error",
      retryable: true,
      requestId: "fake-request-1",
    });
  });

  it("throws an event that is not valid JSON, or not the documented shape, as an invalid response", async () => {
    const [messageStart] = fixture("bedrock-text.jsonl");
    fake.enqueue(
      {
        frames: [
          messageStart!,
          { kind: "event", type: "contentBlockDelta", payload: undefined, raw: '{"contentBlockIndex":' },
        ],
      },
      {
        frames: [
          messageStart!,
          bedrockEvent("contentBlockDelta", { contentBlockIndex: 0, delta: { text: 42 } }),
        ],
      },
    );
    const notJSON = await collect(provider().stream(request));
    const wrongShape = await collect(provider().stream(request));
    expect(notJSON.error).toMatchObject({ code: "provider-response-invalid", provider: "bedrock" });
    expect(notJSON.error!.message).toMatch(/^Bedrock sent an event that is not valid JSON: /);
    expect(wrongShape.error).toMatchObject({
      code: "provider-response-invalid",
      message:
        "Bedrock sent an invalid stream: contentBlockDelta 0 has a text delta that is not a string: 42.",
    });
  });

  it("throws a retryable error naming the failure when Bedrock cannot be reached", async () => {
    const url = fake.url;
    await fake.close();
    const { error } = await collect(provider({ baseURL: url, maxRetries: 0 }).stream(request));
    expect(error).toMatchObject({ code: "provider-api-error", provider: "bedrock", retryable: true });
    expect(error!.message).toMatch(/^Could not reach Bedrock: .*ECONNREFUSED/);
    fake = await startBedrockFake();
  });

  it("throws a config error naming AWS_REGION when no region is found, before any request", async () => {
    vi.stubEnv("AWS_REGION", "");
    vi.stubEnv("AWS_CONFIG_FILE", "/nonexistent/aws-config");
    vi.stubEnv("AWS_PROFILE", "");
    try {
      const { error } = await collect(bedrock({ credentials, baseURL: fake.url }).stream(request));
      expect(error).toMatchObject({
        code: "provider-config-invalid",
        provider: "bedrock",
        message:
          "Bedrock needs an AWS region: pass region to bedrock(), or set AWS_REGION (or a region in your AWS profile).",
      });
      expect(fake.requests).toHaveLength(0);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("throws a config error when the credential provider finds no credentials", async () => {
    const { error } = await collect(
      provider({
        credentials: async () => {
          throw Object.assign(new Error("Could not load credentials from any providers"), {
            name: "CredentialsProviderError",
          });
        },
      }).stream(request),
    );
    expect(error).toMatchObject({ code: "provider-config-invalid", provider: "bedrock" });
    expect(error!.message).toContain("Could not load credentials from any providers");
    expect(fake.requests).toHaveLength(0);
  });
});

describe("bedrock provider credentials", () => {
  const request: ModelRequest = { model, messages: [{ role: "user", content: "Hi" }] };

  it("reads region and credentials from the AWS SDK's provider chain when none are given", async () => {
    vi.stubEnv("AWS_REGION", "eu-west-3");
    vi.stubEnv("AWS_ACCESS_KEY_ID", "AKIDFROMENVIRONMENT");
    vi.stubEnv("AWS_SECRET_ACCESS_KEY", "environment-secret");
    try {
      fake.enqueue({ frames: fixture("bedrock-text.jsonl") });
      const { error } = await collect(bedrock({ baseURL: fake.url }).stream(request));
      expect(error).toBeUndefined();
      expect(fake.requests[0]!.headers.authorization).toMatch(
        /^AWS4-HMAC-SHA256 Credential=AKIDFROMENVIRONMENT\/\d{8}\/eu-west-3\/bedrock\/aws4_request/,
      );
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("sends a Bedrock API key as a bearer token", async () => {
    fake.enqueue({ frames: fixture("bedrock-text.jsonl") });
    const { error } = await collect(
      bedrock({ region: "us-west-2", apiKey: " bedrock-api-key ", baseURL: fake.url }).stream(request),
    );
    expect(error).toBeUndefined();
    expect(fake.requests[0]!.headers.authorization).toBe("Bearer bedrock-api-key");
  });
});

describe("bedrock provider abort", () => {
  it("an aborted signal cancels the HTTP/2 stream and throws the shared abort error", async () => {
    let closed!: () => void;
    const serverSawClose = new Promise<void>((resolve) => {
      closed = resolve;
    });
    fake.enqueue({
      frames: fixture("bedrock-text.jsonl").slice(0, 3),
      ending: "hold",
      onClose: () => closed(),
    });
    const controller = new AbortController();
    const events: ModelStreamEvent[] = [];
    let error: unknown;
    try {
      for await (const event of provider().stream({ ...request(), signal: controller.signal })) {
        events.push(event);
        if (event.type === "text-delta") controller.abort();
      }
    } catch (caught) {
      error = caught;
    }
    await serverSawClose;
    expect(events).toEqual([{ type: "text-delta", text: "Hello" }]);
    expect(JunctionError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: "aborted", message: "The Bedrock request was aborted." });
  });

  it("an abort while waiting for the answer cancels the request without a retry", async () => {
    const controller = new AbortController();
    fake.enqueue(async () => {
      controller.abort();
      await new Promise((resolve) => setTimeout(resolve, 50));
      return { frames: fixture("bedrock-text.jsonl") };
    });
    const { events, error } = await collect(provider().stream({ ...request(), signal: controller.signal }));
    expect(events).toEqual([]);
    expect(error).toMatchObject({ code: "aborted", message: "The Bedrock request was aborted." });
    expect(fake.requests).toHaveLength(1);
  });

  it("does not send a request when the signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const { error } = await collect(provider().stream({ ...request(), signal: controller.signal }));
    expect(error).toMatchObject({ code: "aborted" });
    expect(fake.requests).toHaveLength(0);
  });

  function request(): ModelRequest {
    return { model, messages: [{ role: "user", content: "Hi" }] };
  }
});
