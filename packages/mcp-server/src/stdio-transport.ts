import type { Readable, Writable } from "node:stream";
import { errorMessage, JunctionError } from "@junction/types";
import {
  type JSONRPCMessage,
  STDIO_DEFAULT_MAX_BUFFER_SIZE,
  serializeMessage,
  type Transport,
} from "@modelcontextprotocol/server";
import { INVALID_REQUEST_CODE, type ReadLine, readLine } from "./stdio-lines.js";

type RefusalAnswer = Extract<ReadLine, { answer: unknown }>["answer"];

/** What `LineAnsweringStdioTransport` takes. */
export interface StdioTransportOptions {
  stdin?: Readable;
  stdout?: Writable;
  /** Where a line naming each refused input goes. @default process.stderr */
  stderr?: Writable;
  /** The longest line read, in bytes; a longer one is refused and skipped. @default 10 MB */
  maxLineBytes?: number;
}

/**
 * The SDK's stdio transport, except that a line that is not a JSON-RPC message is answered
 * (-32700 for one that is not JSON, -32600 for JSON that is not JSON-RPC, `id: null` when it has
 * no usable id) and named on stderr, and the connection goes on. Only JSON-RPC goes to stdout.
 */
export class LineAnsweringStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #stdin: Readable;
  readonly #stdout: Writable;
  readonly #stderr: Writable;
  readonly #maxLineBytes: number;
  #buffer: Buffer | undefined;
  /** Dropping the rest of a line that grew past `maxLineBytes`. */
  #skipping = false;
  #started = false;
  #closed = false;

  constructor(options: StdioTransportOptions = {}) {
    this.#stdin = options.stdin ?? process.stdin;
    this.#stdout = options.stdout ?? process.stdout;
    this.#stderr = options.stderr ?? process.stderr;
    this.#maxLineBytes = options.maxLineBytes ?? STDIO_DEFAULT_MAX_BUFFER_SIZE;
  }

  async start(): Promise<void> {
    if (this.#started) {
      throw new JunctionError(
        "invalid-argument",
        "LineAnsweringStdioTransport: start() was called twice; make one transport per connection.",
      );
    }
    this.#started = true;
    if (this.#stdin.readableEnded || this.#stdin.destroyed) setImmediate(this.#onStdinClose);
    this.#stdin.on("data", this.#onData);
    this.#stdin.on("error", this.#onError);
    this.#stdin.on("end", this.#onStdinClose);
    this.#stdin.on("close", this.#onStdinClose);
    this.#stdout.on("error", this.#onStdoutError);
  }

  readonly #onData = (chunk: Buffer): void => {
    if (this.#skipping) {
      // The rest of a line too long to read: dropped up to its newline.
      const end = chunk.indexOf(10);
      if (end === -1) return;
      this.#skipping = false;
      chunk = chunk.subarray(end + 1);
    }
    let buffer = this.#buffer ? Buffer.concat([this.#buffer, chunk]) : chunk;
    for (let end = buffer.indexOf(10); end !== -1; end = buffer.indexOf(10)) {
      const cut = end > 0 && buffer[end - 1] === 13 ? end - 1 : end;
      this.#handleLine(buffer.toString("utf8", 0, cut));
      buffer = buffer.subarray(end + 1);
    }
    if (buffer.length > this.#maxLineBytes) {
      this.#skipping = true;
      buffer = Buffer.alloc(0);
      const problem = `a line is longer than ${this.#maxLineBytes} bytes (the transport's \`maxLineBytes\`); it is skipped to its end`;
      this.#refuse(
        {
          jsonrpc: "2.0",
          id: null,
          error: { code: INVALID_REQUEST_CODE, message: `Invalid Request: ${problem}` },
        },
        problem,
      );
    }
    this.#buffer = buffer.length === 0 ? undefined : buffer;
  };

  #handleLine(line: string): void {
    // A blank line carries nothing (some clients end lines with an extra newline).
    if (line.length === 0 || (line.charCodeAt(0) <= 32 && line.trim().length === 0)) return;
    const read = readLine(line);
    if ("message" in read) {
      this.onmessage?.(read.message);
      return;
    }
    this.#refuse(read.answer, read.problem);
  }

  #refuse(answer: RefusalAnswer, problem: string): void {
    this.#stderr.write(`mcp-server (stdio): refused a line from the client: ${problem}\n`);
    this.send(answer as JSONRPCMessage).catch((error: unknown) => this.onerror?.(toError(error)));
  }

  readonly #onError = (error: Error): void => {
    this.onerror?.(error);
  };

  readonly #onStdoutError = (error: Error): void => {
    if (this.#closed) return;
    this.onerror?.(error);
    this.close().catch(() => undefined);
  };

  readonly #onStdinClose = (): void => {
    this.close().catch(() => undefined);
  };

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#stdin.off("data", this.#onData);
    this.#stdin.off("error", this.#onError);
    this.#stdin.off("end", this.#onStdinClose);
    this.#stdin.off("close", this.#onStdinClose);
    if (this.#stdin.listenerCount("data") === 0) this.#stdin.pause();
    this.#buffer = undefined;
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) {
      return Promise.reject(
        new JunctionError(
          "mcp-connection-closed",
          "The stdio connection is closed: stdin ended or stdout failed.",
        ),
      );
    }
    return new Promise((resolve, reject) => {
      const stdout = this.#stdout;
      if (stdout.write(serializeMessage(message))) {
        resolve();
        return;
      }
      const onDrain = () => {
        stdout.off("error", onFailure);
        resolve();
      };
      const onFailure = (error: Error) => {
        stdout.off("drain", onDrain);
        reject(error);
      };
      stdout.once("drain", onDrain);
      stdout.once("error", onFailure);
    });
  }
}

function toError(value: unknown): Error {
  return value instanceof Error ? value : new JunctionError("mcp-request-failed", errorMessage(value));
}
