import { readFileSync } from "node:fs";
import {
  constants,
  createServer,
  type Http2ServerRequest,
  type Http2ServerResponse,
  type Http2Session,
} from "node:http2";
import type { AddressInfo } from "node:net";
import { EventStreamCodec } from "@smithy/eventstream-codec";
import { fromUtf8, toUtf8 } from "@smithy/util-utf8";
import type { RecordedRequest } from "./index.ts";

/**
 * One message of Bedrock's `application/vnd.amazon.eventstream` response: an event
 * (`:message-type: event`, `:event-type: <type>`) or a modelled exception inside the stream
 * (`:message-type: exception`, `:exception-type: <type>`), with a JSON payload.
 */
export interface BedrockFrame {
  kind: "event" | "exception";
  /** `messageStart`, `contentBlockDelta`, … or `throttlingException`, `modelStreamErrorException`, … */
  type: string;
  payload: unknown;
  /** The payload's bytes exactly, instead of `payload` as JSON: for frames that are not valid JSON. */
  raw?: string;
  /** Send the frame with a wrong message checksum, as if a byte was damaged on the way. */
  corrupt?: boolean;
}

/** A ConverseStream event frame, for example `bedrockEvent("messageStop", { stopReason: "end_turn" })`. */
export function bedrockEvent(type: string, payload: unknown): BedrockFrame {
  return { kind: "event", type, payload };
}

/** An exception frame inside a 200 stream, for example `bedrockException("throttlingException", { message })`. */
export function bedrockException(type: string, payload: { message: string }): BedrockFrame {
  return { kind: "exception", type, payload };
}

const codec = new EventStreamCodec(toUtf8, fromUtf8);

/** Encodes a frame with the AWS SDK's own event-stream codec (prelude, headers, CRCs). */
export function encodeBedrockFrame(frame: BedrockFrame): Uint8Array {
  const typeHeader = frame.kind === "event" ? ":event-type" : ":exception-type";
  const bytes = codec.encode({
    headers: {
      [typeHeader]: { type: "string", value: frame.type },
      ":content-type": { type: "string", value: "application/json" },
      ":message-type": { type: "string", value: frame.kind },
    },
    body: fromUtf8(frame.raw ?? JSON.stringify(frame.payload)),
  });
  // The last four bytes are the message's CRC32.
  if (frame.corrupt) bytes[bytes.length - 1]! ^= 0xff;
  return bytes;
}

/** Decodes one encoded frame back (the codec checks both CRCs). */
export function decodeBedrockFrame(bytes: Uint8Array): BedrockFrame {
  const message = codec.decode(bytes);
  const kind = message.headers[":message-type"]?.value;
  if (kind !== "event" && kind !== "exception") {
    throw new TypeError(`bedrock fake: a frame with :message-type ${String(kind)}`);
  }
  const type = message.headers[kind === "event" ? ":event-type" : ":exception-type"]?.value;
  return { kind, type: String(type), payload: JSON.parse(toUtf8(message.body)) };
}

/**
 * Reads a fixture of ConverseStream events: one JSON object per line, keyed by the event type as
 * the SDK names union members (`{"contentBlockDelta":{"contentBlockIndex":0,"delta":{"text":"Hi"}}}`).
 * A key ending in `Exception` (`{"throttlingException":{"message":"…"}}`) is an exception frame.
 * Blank lines and lines starting with `#` are skipped.
 */
export function readBedrockFixture(file: URL | string): BedrockFrame[] {
  return readFileSync(file, "utf8")
    .split(/\r?\n/)
    .filter((line) => line.trim() !== "" && !line.startsWith("#"))
    .map((line) => {
      const entry = JSON.parse(line) as Record<string, unknown>;
      const keys = Object.keys(entry);
      if (keys.length !== 1) throw new TypeError(`bedrock fixture line with ${keys.length} keys: ${line}`);
      const type = keys[0]!;
      return type.endsWith("Exception")
        ? bedrockException(type, entry[type] as { message: string })
        : bedrockEvent(type, entry[type]);
    });
}

/** A 200 answer streaming event-stream frames. */
export interface BedrockStreamReply {
  frames: BedrockFrame[];
  headers?: Record<string, string>;
  /** Pause between frames, to let a test observe streaming. */
  frameDelayMs?: number;
  /**
   * How the response ends after the frames: `end` (normally, the default), `reset` (the HTTP/2
   * stream is reset, a connection lost mid-stream) or `hold` (left open until the client goes).
   */
  ending?: "end" | "reset" | "hold";
  /** Called when the HTTP/2 stream has closed, whoever closed it. */
  onClose?: () => void;
}

/** An HTTP error answer as Bedrock sends it: JSON `{ message }` and the `x-amzn-ErrorType` header. */
export interface BedrockErrorReply {
  status: number;
  /** `ValidationException`, `ThrottlingException`, … */
  errorType: string;
  message: string;
  headers?: Record<string, string>;
}

/** A 200 JSON answer, as InvokeModel sends a model's output (for example Titan's embeddings). */
export interface BedrockJSONReply {
  json: unknown;
  headers?: Record<string, string>;
}

export type BedrockReply = BedrockStreamReply | BedrockErrorReply | BedrockJSONReply;
export type BedrockHandler = (request: RecordedRequest) => BedrockReply | Promise<BedrockReply>;

/** An error reply, for example `bedrockError(429, "ThrottlingException", "Too many requests")`. */
export function bedrockError(status: number, errorType: string, message: string): BedrockErrorReply {
  return { status, errorType, message };
}

/** A local Bedrock runtime endpoint. */
export interface BedrockFake {
  /** e.g. `http://127.0.0.1:41234`: give it to the SDK as `endpoint`. */
  url: string;
  /** Every request, in order; `path` is `/model/{modelId}/converse-stream`, `body` the Converse input. */
  requests: RecordedRequest[];
  /** Replies are taken in order; once they run out, a 500 names the request. */
  enqueue(...replies: (BedrockReply | BedrockHandler)[]): void;
  close(): Promise<void>;
}

/**
 * Starts a fake Bedrock runtime on 127.0.0.1 with a random port. It speaks HTTP/2 without TLS
 * (prior knowledge), as the AWS SDK's default Node handler does with an `http://` endpoint, and
 * answers `POST /model/{modelId}/converse-stream` with `application/vnd.amazon.eventstream`
 * frames built by the AWS SDK's own codec, `POST /model/{modelId}/invoke` with a model's JSON
 * output (`titanEmbeddings` in `./embeddings`), or with JSON errors carrying `x-amzn-ErrorType`.
 * Every response carries an `x-amzn-RequestId` (`fake-request-1`, `-2`, … unless a reply sets one).
 *
 * @example
 * const fake = await startBedrockFake();
 * fake.enqueue({ frames: readBedrockFixture(new URL("./__fixtures__/bedrock-text.jsonl", import.meta.url)) });
 * const client = new BedrockRuntimeClient({ region: "us-east-1", endpoint: fake.url,
 *   credentials: { accessKeyId: "AKIDFAKE", secretAccessKey: "fake" } });
 */
export async function startBedrockFake(): Promise<BedrockFake> {
  const queue: (BedrockReply | BedrockHandler)[] = [];
  const requests: RecordedRequest[] = [];
  const sessions = new Set<Http2Session>();

  const server = createServer(async (req, res) => {
    const recorded = await record(req);
    requests.push(recorded);
    const next = queue.shift();
    const reply: BedrockReply = next
      ? typeof next === "function"
        ? await next(recorded)
        : next
      : bedrockError(
          500,
          "InternalServerException",
          `bedrock fake: no reply queued for ${recorded.method} ${recorded.path}`,
        );
    await send(res, reply, `fake-request-${requests.length}`);
  });
  server.on("session", (session) => {
    sessions.add(session);
    session.on("close", () => sessions.delete(session));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    enqueue: (...replies) => queue.push(...replies),
    close: () =>
      new Promise<void>((resolve) => {
        for (const session of sessions) session.destroy();
        server.close(() => resolve());
      }),
  };
}

async function record(req: Http2ServerRequest): Promise<RecordedRequest> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  const text = Buffer.concat(parts).toString("utf8");
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { method: req.method, path: req.url, headers: { ...req.headers }, text, body };
}

async function send(res: Http2ServerResponse, reply: BedrockReply, requestId: string): Promise<void> {
  if ("errorType" in reply) {
    res.writeHead(reply.status, {
      "content-type": "application/json",
      "x-amzn-requestid": requestId,
      "x-amzn-errortype": `${reply.errorType}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
      ...reply.headers,
    });
    res.end(JSON.stringify({ message: reply.message }));
    return;
  }
  if ("json" in reply) {
    res.writeHead(200, {
      "content-type": "application/json",
      "x-amzn-requestid": requestId,
      ...reply.headers,
    });
    res.end(JSON.stringify(reply.json));
    return;
  }
  if (reply.onClose) res.stream.once("close", reply.onClose);
  res.writeHead(200, {
    "content-type": "application/vnd.amazon.eventstream",
    "x-amzn-requestid": requestId,
    ...reply.headers,
  });
  for (const frame of reply.frames) {
    if (res.stream.closed) return;
    res.write(encodeBedrockFrame(frame));
    if (reply.frameDelayMs) await new Promise((resolve) => setTimeout(resolve, reply.frameDelayMs));
  }
  switch (reply.ending ?? "end") {
    case "end":
      res.end();
      break;
    case "reset":
      res.stream.close(constants.NGHTTP2_INTERNAL_ERROR);
      break;
    case "hold":
      break;
  }
}
