// Failures, credentials and abort: the real AWS SDK against the Bedrock event-stream bedrockFake.fake.
import type { ModelRequest } from "@junction/types";
import { ProviderError } from "@junction/types";
import { collectStream } from "@junction/wire-fake";
import { bedrockError, bedrockEvent, bedrockException } from "@junction/wire-fake/bedrock";
import { describe, expect, it, vi } from "vitest";
import { credentials, fixture, model, useBedrockFake } from "../test/bedrock-fake.js";
import { bedrock } from "./bedrock-provider.js";

const bedrockFake = useBedrockFake();
const provider = bedrockFake.provider;

const _textFinish = {
  type: "finish",
  reason: "stop",
  rawReason: "end_turn",
  usage: { inputTokens: 14, outputTokens: 11, totalTokens: 25 },
  content: [{ type: "text", text: "Hello! How can I help you today?" }],
};

describe("bedrock provider failures", () => {
  const request: ModelRequest = { model, messages: [{ role: "user", content: "Hi" }] };

  it("throws a ValidationException as a non-retryable 400 with the request id, without retrying", async () => {
    bedrockFake.fake.enqueue(
      bedrockError(
        400,
        "ValidationException",
        "The model returned the following errors: messages: at least one message is required",
      ),
    );
    const { events, error } = await collectStream(provider().stream(request));
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
    expect(bedrockFake.fake.requests).toHaveLength(1);
  });

  it("throws AccessDenied and ResourceNotFound as non-retryable", async () => {
    bedrockFake.fake.enqueue(
      bedrockError(
        403,
        "AccessDeniedException",
        "You don't have access to the model with the specified model ID.",
      ),
      bedrockError(404, "ResourceNotFoundException", "Model not found."),
    );
    const denied = await collectStream(provider().stream(request));
    const missing = await collectStream(provider().stream(request));
    expect(denied.error).toMatchObject({ status: 403, retryable: false, requestId: "fake-request-1" });
    expect(missing.error).toMatchObject({ status: 404, retryable: false, requestId: "fake-request-2" });
    expect(bedrockFake.fake.requests).toHaveLength(2);
  });

  it("throws a retryable 429 once the retries are spent", async () => {
    const throttled = bedrockError(
      429,
      "ThrottlingException",
      "Too many requests, please wait before trying again.",
    );
    bedrockFake.fake.enqueue(throttled, throttled);
    const { error } = await collectStream(provider({ maxRetries: 1 }).stream(request));
    expect(bedrockFake.fake.requests).toHaveLength(2);
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
    bedrockFake.fake.enqueue(
      bedrockError(503, "ServiceUnavailableException", "Bedrock is unable to process your request."),
      bedrockError(500, "InternalServerException", "An internal server error occurred."),
    );
    const unavailable = await collectStream(provider({ maxRetries: 0 }).stream(request));
    const internal = await collectStream(provider({ maxRetries: 0 }).stream(request));
    expect(unavailable.error).toMatchObject({ code: "provider-api-error", status: 503, retryable: true });
    expect(internal.error).toMatchObject({ code: "provider-api-error", status: 500, retryable: true });
    expect(bedrockFake.fake.requests).toHaveLength(2);
  });

  it("throws an exception sent inside the stream, after the events before it", async () => {
    const frames = fixture("bedrock-text.jsonl").slice(0, 2);
    bedrockFake.fake.enqueue({
      frames: [
        ...frames,
        bedrockException("modelStreamErrorException", { message: "The model stream failed." }),
      ],
    });
    const { events, error } = await collectStream(provider().stream(request));
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
    bedrockFake.fake.enqueue({
      frames: [
        ...fixture("bedrock-text.jsonl").slice(0, 1),
        bedrockException("validationException", { message: "Input is too long for requested model." }),
      ],
    });
    const { error } = await collectStream(provider().stream(request));
    expect(error).toMatchObject({ code: "provider-stream-error", retryable: false });
  });

  it("throws when the stream ends before messageStop", async () => {
    bedrockFake.fake.enqueue({ frames: fixture("bedrock-text.jsonl").slice(0, 3) });
    const { events, error } = await collectStream(provider().stream(request));
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
    bedrockFake.fake.enqueue({
      frames: fixture("bedrock-text.jsonl").slice(0, 3),
      frameDelayMs: 20,
      ending: "reset",
    });
    const { events, error } = await collectStream(provider({ maxRetries: 0 }).stream(request));
    expect(events).toEqual([
      { type: "text-delta", text: "Hello" },
      { type: "text-delta", text: "! How can I" },
    ]);
    expect(bedrockFake.fake.requests).toHaveLength(1);
    expect(error).toMatchObject({
      code: "provider-stream-error",
      retryable: true,
      requestId: "fake-request-1",
    });
  });

  it("throws an event that is not valid JSON, or not the documented shape, as an invalid response", async () => {
    const [messageStart] = fixture("bedrock-text.jsonl");
    bedrockFake.fake.enqueue(
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
    const notJSON = await collectStream(provider().stream(request));
    const wrongShape = await collectStream(provider().stream(request));
    expect(notJSON.error).toMatchObject({ code: "provider-response-invalid", provider: "bedrock" });
    expect(notJSON.error!.message).toMatch(/^Bedrock sent an event that is not valid JSON: /);
    expect(wrongShape.error).toMatchObject({
      code: "provider-response-invalid",
      message:
        "Bedrock sent an invalid stream: contentBlockDelta 0 has a text delta that is not a string: 42.",
    });
  });

  it("throws a stream error, not an unreachable endpoint, when the first event frame of a 200 answer is damaged", async () => {
    bedrockFake.fake.enqueue({
      frames: [{ ...bedrockEvent("messageStart", { role: "assistant" }), corrupt: true }],
    });
    const { events, error } = await collectStream(provider({ maxRetries: 0 }).stream(request));
    expect(events).toEqual([]);
    expect(error).toMatchObject({
      code: "provider-stream-error",
      provider: "bedrock",
      retryable: true,
      status: undefined,
      requestId: "fake-request-1",
    });
    expect(error!.message).toMatch(/^The Bedrock stream failed: The message checksum \(\d+\) did not match/);
  });

  it("throws a config error naming AWS_REGION when no region is found, before any request", async () => {
    vi.stubEnv("AWS_REGION", "");
    vi.stubEnv("AWS_CONFIG_FILE", "/nonexistent/aws-config");
    vi.stubEnv("AWS_PROFILE", "");
    try {
      const { error } = await collectStream(
        bedrock({ credentials, baseURL: bedrockFake.fake.url }).stream(request),
      );
      expect(error).toMatchObject({
        code: "provider-config-invalid",
        provider: "bedrock",
        message:
          "Bedrock needs an AWS region: pass region to bedrock(), or set AWS_REGION (or a region in your AWS profile).",
      });
      expect(bedrockFake.fake.requests).toHaveLength(0);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("throws a config error when the credential provider finds no credentials", async () => {
    const { error } = await collectStream(
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
    expect(bedrockFake.fake.requests).toHaveLength(0);
  });
});

describe("bedrock provider credentials", () => {
  const request: ModelRequest = { model, messages: [{ role: "user", content: "Hi" }] };

  it("reads region and credentials from the AWS SDK's provider chain when none are given", async () => {
    vi.stubEnv("AWS_REGION", "eu-west-3");
    vi.stubEnv("AWS_ACCESS_KEY_ID", "AKIDFROMENVIRONMENT");
    vi.stubEnv("AWS_SECRET_ACCESS_KEY", "environment-secret");
    try {
      bedrockFake.fake.enqueue({ frames: fixture("bedrock-text.jsonl") });
      const { error } = await collectStream(bedrock({ baseURL: bedrockFake.fake.url }).stream(request));
      expect(error).toBeUndefined();
      expect(bedrockFake.fake.requests[0]!.headers.authorization).toMatch(
        /^AWS4-HMAC-SHA256 Credential=AKIDFROMENVIRONMENT\/\d{8}\/eu-west-3\/bedrock\/aws4_request/,
      );
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("sends a Bedrock API key as a bearer token", async () => {
    bedrockFake.fake.enqueue({ frames: fixture("bedrock-text.jsonl") });
    const { error } = await collectStream(
      bedrock({ region: "us-west-2", apiKey: " bedrock-api-key ", baseURL: bedrockFake.fake.url }).stream(
        request,
      ),
    );
    expect(error).toBeUndefined();
    expect(bedrockFake.fake.requests[0]!.headers.authorization).toBe("Bearer bedrock-api-key");
  });
});

describe("bedrock provider abort", () => {
  it("an abort while waiting for the answer cancels the request without a retry", async () => {
    const controller = new AbortController();
    bedrockFake.fake.enqueue(async () => {
      controller.abort();
      await new Promise((resolve) => setTimeout(resolve, 50));
      return { frames: fixture("bedrock-text.jsonl") };
    });
    const { events, error } = await collectStream(
      provider().stream({ ...request(), signal: controller.signal }),
    );
    expect(events).toEqual([]);
    expect(error).toMatchObject({ code: "aborted", message: "The Bedrock request was aborted." });
    expect(bedrockFake.fake.requests).toHaveLength(1);
  });

  function request(): ModelRequest {
    return { model, messages: [{ role: "user", content: "Hi" }] };
  }
});
