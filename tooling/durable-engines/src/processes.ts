// Worker processes for the crash tests: started with node, killed with SIGKILL, watched through
// the lines they append to a file. Never imported by shipped code.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { connect, createServer } from "node:net";

/** Polls `check` every 20 ms until it is true; fails after `timeoutMs`, naming `what`. */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  options: { timeoutMs: number; what: string },
): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline)
      throw new Error(`Timed out after ${options.timeoutMs} ms waiting for ${options.what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The lines of a file the processes append to (none while it does not exist). */
export function readLines(path: string): string[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line !== "");
}

/** A node process running `script` with `env`; its output is kept for failure messages. */
export interface NodeProcess {
  readonly child: ChildProcess;
  output(): string;
  /** SIGKILL: no shutdown hooks, no flush, as in a crash. */
  kill(): Promise<void>;
  /** Resolves with the exit code; rejects with the output when it is not 0. */
  exited(): Promise<void>;
}

export function startNode(script: string, env: Record<string, string>, args: string[] = []): NodeProcess {
  const child = spawn(process.execPath, [script, ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr!.on("data", (chunk) => {
    output += chunk;
  });
  const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    output: () => output,
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exit;
    },
    exited: async () => {
      const code = await exit;
      if (code !== 0) throw new Error(`${script} exited with ${code}:\n${output}`);
    },
  };
}

/** The line a worker process prints once it listens: then the port the kernel gave it. */
export const LISTENING = "listening on ";

/**
 * Prints {@link LISTENING} and `port` on stdout: what a worker that listens on port 0 (the
 * kernel's pick, bound at once) tells the test, which reads it with {@link listeningPort}.
 */
export function announceListening(port: number): void {
  process.stdout.write(`${LISTENING}${port}\n`);
}

/**
 * Waits until `running` printed {@link LISTENING}; the port it listens on. Fails, with its output,
 * when it exits first or does not listen within `timeoutMs`.
 */
export async function listeningPort(
  running: NodeProcess,
  options: { timeoutMs: number; what: string },
): Promise<number> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const line = running
      .output()
      .split("\n")
      .find((candidate) => candidate.startsWith(LISTENING));
    if (line !== undefined) return Number(line.slice(LISTENING.length));
    if (running.child.exitCode !== null || running.child.signalCode !== null) {
      throw new Error(`${options.what} exited before it listened; its output:\n${running.output()}`);
    }
    if (Date.now() > deadline) {
      throw new Error(
        `Timed out after ${options.timeoutMs} ms waiting for ${options.what} to listen; its output:\n${running.output()}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** `promise`, or a failure naming `what` after `timeoutMs` (so a hang says what it waited for). */
export async function withTimeout<T>(
  promise: Promise<T>,
  options: { timeoutMs: number; what: () => string },
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`Timed out after ${options.timeoutMs} ms waiting for ${options.what()}`)),
      options.timeoutMs,
    );
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Resolves once something accepts TCP connections on the loopback `port`. */
export async function waitForPort(
  port: number,
  options: { timeoutMs: number; what: () => string },
): Promise<void> {
  const accepts = () =>
    new Promise<boolean>((resolve) => {
      const socket = connect({ host: "127.0.0.1", port });
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
  await withTimeout(
    (async () => {
      while (!(await accepts())) await new Promise((resolve) => setTimeout(resolve, 20));
    })(),
    options,
  );
}

/** A free loopback port (the kernel's pick, released for the caller to bind). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0));
    });
  });
}
