// Node-only: this module spawns processes. `mcp.ts` loads it with a dynamic import, so the
// package's root entry stays usable in runtimes without `node:child_process`.
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { JunctionError } from "@junction/types";
import { getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";

/** How much of a server's stderr is kept for error messages. */
const STDERR_TAIL_BYTES = 8 * 1024;
/** How long to wait for the pipes to drain after the process exited. */
const EXIT_DRAIN_MS = 200;
/** A line longer than this is dropped as garbage rather than buffered forever. */
const MAX_LINE_BYTES = 64 * 1024 * 1024;

/** Options for {@link StdioProcessTransport}. */
export interface StdioProcessTransportOptions {
  command: string;
  args?: string[];
  /** Added to the safe default environment (PATH, HOME, …); nothing else is inherited. */
  env?: Record<string, string>;
  cwd?: string;
  /** How long to wait after closing stdin before signalling the process group. @default 300 */
  gracefulExitMs?: number;
  /** How long to wait after SIGTERM before SIGKILL. @default 2000 */
  killGraceMs?: number;
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
  private buffer = "";
  private stderrTail = "";
  private exitInfo?: StdioExit;
  private exited?: Promise<void>;
  private closing?: Promise<void>;
  private closed = false;
  /** Lines on stdout that were not JSON-RPC messages. */
  garbageLines = 0;

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
        env: { ...getDefaultEnvironment(), ...this.options.env },
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
      });
    });
  }

  private receive(chunk: string): void {
    this.buffer += chunk;
    let newline = this.buffer.indexOf("\n");
    while (newline !== -1) {
      const line = this.buffer.slice(0, newline).replace(/\r$/, "");
      this.buffer = this.buffer.slice(newline + 1);
      this.handleLine(line);
      newline = this.buffer.indexOf("\n");
    }
    if (this.buffer.length > MAX_LINE_BYTES) {
      this.buffer = "";
      this.garbageLines++;
      this.onerror?.(
        new JunctionError("mcp-invalid-response", `server wrote a line longer than ${MAX_LINE_BYTES} bytes`),
      );
    }
  }

  private handleLine(line: string): void {
    if (line.trim() === "") return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      this.reportGarbage(line);
      return;
    }
    const message = JSONRPCMessageSchema.safeParse(parsed);
    if (!message.success) {
      this.reportGarbage(line);
      return;
    }
    this.onmessage?.(message.data);
  }

  private reportGarbage(line: string): void {
    this.garbageLines++;
    const preview = line.length > 120 ? `${line.slice(0, 120)}…` : line;
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
