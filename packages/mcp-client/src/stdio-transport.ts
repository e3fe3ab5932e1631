// Node-only: this module spawns processes. `mcp.ts` loads it with a dynamic import, so the
// package's root entry stays usable in runtimes without `node:child_process`.
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { JunctionError } from "@junction/types";
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/client";
import { getDefaultEnvironment } from "@modelcontextprotocol/client/stdio";
import { networkEnvironment } from "./stdio-environment.js";

/** How much of a server's stderr is kept for error messages. */
const STDERR_TAIL_BYTES = 8 * 1024;
/** How many lines that are not JSON-RPC are kept to quote in a failed connect's error. */
const GARBAGE_SAMPLE_LINES = 3;
/** How long to wait for the pipes to drain after the process exited. */
const EXIT_DRAIN_MS = 200;

/** Options for {@link StdioProcessTransport}. */
export interface StdioProcessTransportOptions {
  command: string;
  args?: string[];
  /**
   * Added to the safe default environment (PATH, HOME, …, and the certificate and proxy variables
   * of `stdio-environment.ts`); nothing else is inherited.
   */
  env?: Record<string, string>;
  cwd?: string;
  /** How long to wait after closing stdin before signalling the process group. @default 300 */
  gracefulExitMs?: number;
  /** How long to wait after SIGTERM before SIGKILL. @default 2000 */
  killGraceMs?: number;
  /** A stdout line longer than this is dropped as garbage rather than buffered forever. @default 64 Mi characters */
  maxLineChars?: number;
  /** Receives every chunk the server writes to stderr, as it arrives. A throwing callback is ignored. */
  onStderr?: (chunk: string) => void;
}

/** Why the process ended, once it has. */
export interface StdioExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * An MCP stdio transport that owns the server's whole process tree: the server runs in its own
 * process group, and `close()` resolves only once every process of that group (grandchildren
 * included) is gone. Keeps a bounded tail of stderr for error messages, and treats lines on
 * stdout that are not JSON-RPC as noise to report, never as a reason to crash.
 */
export class StdioProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  private child?: ChildProcess;
  /** The pieces of a line that has not ended yet. */
  private partial: string[] = [];
  private partialLength = 0;
  /** Set while skipping the rest of a line that grew past `maxLineChars`. */
  private droppingLine = false;
  private stderrTail = "";
  private exitInfo?: StdioExit;
  private exited?: Promise<void>;
  private closing?: Promise<void>;
  private closed = false;
  /** Lines on stdout that were not JSON-RPC messages. */
  garbageLines = 0;
  /** The first few of those lines (shortened), for an error that says what the server printed. */
  readonly garbageSample: string[] = [];

  constructor(private readonly options: StdioProcessTransportOptions) {}

  /** The process id, once started. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The exit code and signal, once the process has ended. */
  get exit(): StdioExit | undefined {
    return this.exitInfo;
  }

  /** The last few kilobytes the server wrote to stderr. */
  stderr(): string {
    return this.stderrTail;
  }

  start(): Promise<void> {
    if (this.child) {
      return Promise.reject(new JunctionError("mcp-connect-failed", "stdio transport already started"));
    }
    return new Promise<void>((resolve, reject) => {
      const child = spawn(this.options.command, this.options.args ?? [], {
        env: { ...getDefaultEnvironment(), ...networkEnvironment(), ...this.options.env },
        cwd: this.options.cwd,
        stdio: ["pipe", "pipe", "pipe"],
        // Its own process group, so close() can signal the server and everything it started.
        detached: process.platform !== "win32",
        windowsHide: true,
        shell: false,
      });
      this.child = child;
      this.exited = new Promise<void>((resolveExit) => {
        let done = false;
        const finish = () => {
          if (done) return;
          done = true;
          resolveExit();
          if (!this.closed) {
            this.closed = true;
            this.onclose?.();
          }
        };
        // "close" comes once stdout and stderr are drained, so the stderr tail is complete. A
        // grandchild that inherited the pipes can hold them open after the server died, though:
        // then "exit" alone, after a short grace for the last output, ends the connection.
        child.once("exit", (code, signal) => {
          this.exitInfo = { code, signal };
          setTimeout(finish, EXIT_DRAIN_MS);
        });
        child.once("close", (code, signal) => {
          this.exitInfo ??= { code, signal };
          finish();
        });
      });
      child.once("error", (error) => {
        // Fires instead of "spawn" when the command cannot be started at all (ENOENT, EACCES).
        if (child.pid === undefined) {
          this.closed = true;
          reject(error);
          return;
        }
        this.onerror?.(error);
      });
      child.once("spawn", () => resolve());
      child.stdin?.on("error", (error) => this.onerror?.(error));
      child.stdout?.setEncoding("utf8");
      child.stdout?.on("data", (chunk: string) => this.receive(chunk));
      child.stderr?.setEncoding("utf8");
      child.stderr?.on("data", (chunk: string) => {
        this.stderrTail = (this.stderrTail + chunk).slice(-STDERR_TAIL_BYTES);
        try {
          this.options.onStderr?.(chunk);
        } catch {
          // An observer's failure must not stop the server's stderr from being drained.
        }
      });
    });
  }

  /**
   * Splits stdout into lines. Only the new chunk is searched for a newline, and the pieces of an
   * unfinished line are joined once it ends, so a message of many megabytes arriving in small
   * chunks costs linear time, not quadratic.
   */
  private receive(chunk: string): void {
    const maxLineChars = this.options.maxLineChars ?? 64 * 1024 * 1024;
    let start = 0;
    for (let newline = chunk.indexOf("\n"); newline !== -1; newline = chunk.indexOf("\n", start)) {
      let line = chunk.slice(start, newline);
      start = newline + 1;
      if (this.droppingLine) {
        this.droppingLine = false; // the end of an overlong line that was already dropped
        continue;
      }
      // A line that ends in this chunk is held to the limit too, however its pieces arrived.
      if (this.partialLength + line.length > maxLineChars) {
        this.partial = [];
        this.partialLength = 0;
        this.dropOverlongLine(maxLineChars);
        continue;
      }
      if (this.partial.length > 0) {
        this.partial.push(line);
        line = this.partial.join("");
        this.partial = [];
        this.partialLength = 0;
      }
      this.handleLine(line);
    }
    if (start === chunk.length || this.droppingLine) return;
    const rest = start === 0 ? chunk : chunk.slice(start);
    this.partial.push(rest);
    this.partialLength += rest.length;
    if (this.partialLength > maxLineChars) {
      this.partial = [];
      this.partialLength = 0;
      this.droppingLine = true;
      this.dropOverlongLine(maxLineChars);
    }
  }

  private dropOverlongLine(maxLineChars: number): void {
    this.garbageLines++;
    this.onerror?.(
      new JunctionError(
        "mcp-invalid-response",
        `server wrote a line longer than ${maxLineChars} characters; it was dropped`,
      ),
    );
  }

  private handleLine(line: string): void {
    let parsed: unknown;
    try {
      // JSON.parse skips the whitespace around a message, a "\r" of CRLF line ends included.
      parsed = JSON.parse(line);
    } catch {
      if (line.trim() !== "") this.reportGarbage(line);
      return;
    }
    if (!looksLikeJSONRPC(parsed)) {
      this.reportGarbage(line);
      return;
    }
    this.onmessage?.(parsed);
  }

  private reportGarbage(line: string): void {
    this.garbageLines++;
    const text = line.trimEnd();
    const preview = text.length > 120 ? `${text.slice(0, 120)}…` : text;
    if (this.garbageSample.length < GARBAGE_SAMPLE_LINES) this.garbageSample.push(preview);
    this.onerror?.(
      new JunctionError("mcp-invalid-response", `ignored a stdout line that is not JSON-RPC: ${preview}`),
    );
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.closed || !stdin.writable) {
      return Promise.reject(new JunctionError("mcp-connection-closed", "the server process is not running"));
    }
    return new Promise<void>((resolve, reject) => {
      stdin.write(`${JSON.stringify(message)}\n`, (error) => (error ? reject(error) : resolve()));
    });
  }

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    const child = this.child;
    if (!child || child.pid === undefined) {
      this.closed = true;
      return;
    }
    const pid = child.pid;
    const wasClosed = this.closed;
    this.closed = true;
    // The polite way first (as the MCP specification asks): close stdin and give it a moment.
    child.stdin?.end();
    if (!this.exitInfo) await waitFor(this.exited, this.options.gracefulExitMs ?? 300);
    if (groupAlive(pid)) {
      signalGroup(pid, "SIGTERM");
      await waitUntil(() => !groupAlive(pid), this.options.killGraceMs ?? 2000);
    }
    if (groupAlive(pid)) {
      signalGroup(pid, "SIGKILL");
      await waitUntil(() => !groupAlive(pid), 2000);
    }
    await waitFor(this.exited, 2000);
    if (!wasClosed) this.onclose?.();
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(process.platform === "win32" ? pid : -pid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * Whether any live process remains in the group. On Linux, /proc tells zombies apart (a killed
 * grandchild may stay a zombie when PID 1 does not reap); elsewhere a signal-0 probe answers.
 */
function groupAlive(pgid: number): boolean {
  if (process.platform === "linux") {
    try {
      for (const entry of readdirSync("/proc")) {
        if (!/^\d+$/.test(entry)) continue;
        let stat: string;
        try {
          stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        } catch {
          continue;
        }
        // Fields after the command name, which is in parentheses and may contain spaces.
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        if (Number(fields[2]) === pgid && fields[0] !== "Z" && fields[0] !== "X") return true;
      }
      return false;
    } catch {
      // No /proc: fall through to the probe.
    }
  }
  try {
    process.kill(process.platform === "win32" ? pgid : -pgid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(promise: Promise<void> | undefined, ms: number): Promise<void> {
  if (!promise) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

async function waitUntil(condition: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Tells a JSON-RPC message from other JSON a server prints (a stray `console.log` of an array
 * or an object). Only the envelope: the SDK's protocol layer checks every message's full shape
 * anyway, so a second full schema parse here would cost every call without catching more.
 */
function looksLikeJSONRPC(value: unknown): value is JSONRPCMessage {
  if (typeof value !== "object" || value === null) return false;
  const message = value as Record<string, unknown>;
  return (
    message.jsonrpc === "2.0" &&
    (typeof message.method === "string" || "result" in message || "error" in message)
  );
}
