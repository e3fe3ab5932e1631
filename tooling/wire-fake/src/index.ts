import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A request the fake received, with its body parsed when it was JSON. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The raw body text. */
  text: string;
  /** The body parsed as JSON, or undefined when it was not JSON. */
  body: any;
}

/** One scripted reply. */
export interface WireReply {
  status?: number;
  headers?: Record<string, string>;
  /** A JSON value (sent as application/json), or raw text. */
  json?: unknown;
  text?: string;
  /**
   * Raw chunks written one by one (for SSE, each chunk is sent exactly as given, so the
   * framing is the vendor's: `event: …\ndata: …\n\n`). Content type defaults to text/event-stream.
   */
  chunks?: string[];
  /** Pause between chunks, to let a test observe streaming. */
  chunkDelayMs?: number;
  /** Cut the connection after writing the chunks, without ending the response properly. */
  destroyAfterChunks?: boolean;
}

export type WireHandler = (request: RecordedRequest) => WireReply | Promise<WireReply>;

export interface WireFake {
  /** e.g. `http://127.0.0.1:41234` (no trailing slash). */
  url: string;
  requests: RecordedRequest[];
  /** Replies are taken in order; once they run out, `fallback` answers (default: 500 with a message). */
  enqueue(...replies: (WireReply | WireHandler)[]): void;
  close(): Promise<void>;
}

/**
 * Starts a fake vendor API on 127.0.0.1 with a random port. Every request is recorded;
 * each is answered by the next queued reply.
 *
 * @example
 * const fake = await startWireFake();
 * fake.enqueue({ chunks: readSSEFixture(new URL("./__fixtures__/text.sse.txt", import.meta.url)) });
 * const client = new Anthropic({ apiKey: "test", baseURL: fake.url });
 */
export async function startWireFake(options: { fallback?: WireHandler } = {}): Promise<WireFake> {
  const queue: (WireReply | WireHandler)[] = [];
  const requests: RecordedRequest[] = [];
  const fallback: WireHandler =
    options.fallback ??
    ((request) => ({
      status: 500,
      json: { error: `wire-fake: no reply queued for ${request.method} ${request.path}` },
    }));

  const server: Server = createServer(async (req, res) => {
    const recorded = await record(req);
    requests.push(recorded);
    const next = queue.shift() ?? fallback;
    const reply = typeof next === "function" ? await next(recorded) : next;
    await send(res, reply);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    enqueue: (...replies) => queue.push(...replies),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A loopback URL where nothing listens (a port that was just bound and released), for testing
 * what a provider says when its endpoint cannot be reached: connecting to it is refused.
 */
export async function closedLocalURL(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/**
 * Reads an SSE fixture file and splits it into events (on blank lines), keeping the exact
 * framing. Lines starting with `#` at the top of the file are comments (e.g. the source of the
 * fixture) and are dropped.
 */
export function readSSEFixture(file: URL | string): string[] {
  const text = readFileSync(file, "utf8").replace(/\r\n/g, "\n");
  const withoutHeader = text.replace(/^(#[^\n]*\n)+\n?/, "");
  return withoutHeader
    .split(/\n\n+/)
    .filter((event) => event.trim() !== "")
    .map((event) => `${event}\n\n`);
}

async function record(req: IncomingMessage): Promise<RecordedRequest> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  const text = Buffer.concat(parts).toString("utf8");
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { method: req.method ?? "GET", path: req.url ?? "/", headers: req.headers, text, body };
}

async function send(res: ServerResponse, reply: WireReply): Promise<void> {
  const status = reply.status ?? 200;
  if (reply.chunks) {
    res.writeHead(status, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      connection: "keep-alive",
      ...reply.headers,
    });
    for (const chunk of reply.chunks) {
      res.write(chunk);
      if (reply.chunkDelayMs) await new Promise((r) => setTimeout(r, reply.chunkDelayMs));
    }
    if (reply.destroyAfterChunks) res.destroy();
    else res.end();
    return;
  }
  if (reply.json !== undefined) {
    res.writeHead(status, { "content-type": "application/json", ...reply.headers });
    res.end(JSON.stringify(reply.json));
    return;
  }
  res.writeHead(status, { "content-type": "text/plain", ...reply.headers });
  res.end(reply.text ?? "");
}

export {
  type AnthropicStreamBlock,
  type AnthropicTurn,
  anthropicEvent,
  anthropicStream,
  anthropicText,
  anthropicToolUse,
} from "./anthropic-stream.js";
export { collectStream } from "./collect-stream.js";
export {
  type ResponsesTurn,
  responsesEvent,
  responsesMessage,
  responsesStream,
} from "./responses-stream.js";
