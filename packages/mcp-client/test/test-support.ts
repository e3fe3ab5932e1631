// Helpers for this package's tests, outside src/ so they are never built or published: where the
// real servers live, and process checks.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { JunctionError } from "@junction/types";

const require = createRequire(import.meta.url);
const packageRoot = join(dirname(fileURLToPath(import.meta.url)), "..");

/** The dist entry of an npm server package installed as a devDependency. */
export function serverEntry(name: string): string {
  const manifestPath = require.resolve(`${name}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as {
    bin?: string | Record<string, string>;
  };
  const bin = typeof manifest.bin === "string" ? manifest.bin : Object.values(manifest.bin ?? {})[0];
  if (!bin) throw new TypeError(`${name} has no bin entry`);
  return join(dirname(manifestPath), bin);
}

export const everythingEntry = serverEntry("@modelcontextprotocol/server-everything");

/** A fault server from test-servers/. */
export function testServer(file: string): string {
  return join(packageRoot, "test-servers", file);
}

/** True while a process exists and is not a zombie. */
export function processAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
    return state !== "Z" && state !== "X";
  } catch {
    try {
      process.kill(pid, 0);
      return process.platform !== "linux";
    } catch {
      return false;
    }
  }
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== "object" || address === null) throw new TypeError("no port");
  return address.port;
}

/** Starts server-everything in Streamable HTTP mode on a free loopback port. */
export async function startEverythingHttp(): Promise<{
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}> {
  const port = await freePort();
  const child = spawn(process.execPath, [everythingEntry, "streamableHttp"], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes("listening on port")) resolve();
    });
    child.once("exit", (code) => reject(new TypeError(`server-everything exited with ${code}: ${stderr}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    process: child,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
    },
  };
}

/**
 * Starts `node script ...args` (a server from test-servers/ in HTTP mode); resolves once it
 * prints `listening <port>`, with its Streamable HTTP endpoint.
 */
export async function startListeningServer(
  script: string,
  args: string[],
): Promise<{ child: ChildProcess; port: number; url: string }> {
  const child = spawn(process.execPath, [script, ...args], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<number>((resolve, reject) => {
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening (\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    child.once("exit", (code) => reject(new TypeError(`${script} exited with ${code} before listening`)));
  });
  return { child, port, url: `http://127.0.0.1:${port}/mcp` };
}

/** Ends a process with SIGTERM and waits for it (at once if it has already exited). */
export function stopProcess(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/** The JunctionError a promise rejects with; fails the test if it resolves or rejects otherwise. */
export async function rejection(promise: Promise<unknown>): Promise<JunctionError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!JunctionError.isInstance(error)) throw new TypeError(`expected a JunctionError, got ${String(error)}`);
  return error;
}

/** The text parts of a tool result, joined. */
export function resultText(result: { content: { type: string; text?: string }[] }): string {
  return result.content.map((part) => part.text ?? "").join("");
}
