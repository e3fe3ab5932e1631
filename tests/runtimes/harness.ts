// What the runtimes test starts: the servers the program talks to, the runtimes that run it, and
// the bundles esbuild makes of it. Everything listens on 127.0.0.1 only.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const require = createRequire(import.meta.url);
export const runtimesDir = dirname(fileURLToPath(import.meta.url));
const testsDir = join(runtimesDir, "..");
export const everythingEntry = require.resolve("@modelcontextprotocol/server-everything/dist/index.js");
const bin = (name: string) => join(testsDir, "node_modules", ".bin", name);

/** What `runProgram` in program.mjs takes. */
export interface ProgramOptions {
  mcpURL: string;
  chatBaseURL: string;
  stdio: { command: string; args: string[] };
}

/** A free loopback port (taken and given back; the caller binds it next). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Ends a child process and waits for it. */
export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

/** Starts a process and resolves once `ready` matches what it wrote to stderr or stdout. */
async function startUntil(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; ready: RegExp },
): Promise<ChildProcess> {
  const child = spawn(command, args, {
    env: options.env ?? process.env,
    cwd: options.cwd,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (options.ready.test(output)) resolve();
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", read);
    child.once("exit", (code) =>
      reject(new Error(`${command} exited with ${code} before it was ready:\n${output}`)),
    );
  });
  // Keep reading, so a full pipe never blocks it.
  child.stdout?.resume();
  child.stderr?.resume();
  return child;
}

/** server-everything in its Streamable HTTP mode (it sends CORS headers for every origin). */
export async function startEverythingHttp(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = await startUntil(process.execPath, [everythingEntry, "streamableHttp"], {
    env: { ...process.env, PORT: String(port) },
    ready: /listening on port/,
  });
  return { url: `http://127.0.0.1:${port}/mcp`, child };
}

/**
 * Runs run-program.mjs under `runtime` with the packages as installed (no bundling), as a user's
 * script imports them, and returns the outcome it printed.
 */
export async function runUnbundled(
  runtime: "node" | "bun" | "deno",
  options: ProgramOptions,
): Promise<unknown> {
  const script = join(runtimesDir, "run-program.mjs");
  const argument = JSON.stringify(options);
  const [command, args] =
    runtime === "node"
      ? [process.execPath, [script, argument]]
      : runtime === "bun"
        ? [bin("bun"), [script, argument]]
        : [bin("deno"), ["run", "--allow-all", "--no-lock", "--quiet", script, argument]];
  const child = spawn(command, args, { cwd: testsDir, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`${runtime} exited with ${code}:\n${stderr}\n${stdout}`);
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "null");
}

/** A version string of each runtime's binary, for the test's names. */
export function runtimeBinary(runtime: "bun" | "deno" | "workerd"): string {
  return bin(runtime);
}

/**
 * Bundles `entry` with esbuild for `platform: "browser"`: no stubs, no externals, no Node
 * built-ins; a module that needs one fails the build. `conditions` are the export conditions a
 * tool for that target adds (wrangler's for Workers).
 */
export async function bundleForBrowser(entry: string, conditions: string[] = []): Promise<string> {
  const result = await build({
    entryPoints: [join(runtimesDir, entry)],
    bundle: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    conditions,
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0]?.text ?? "";
}

/** Bundles `export * from "<specifier>"` for the browser, as {@link bundleForBrowser} does. */
export async function bundleImportForBrowser(specifier: string): Promise<string> {
  const result = await build({
    stdin: { contents: `export * from ${JSON.stringify(specifier)};`, resolveDir: testsDir, loader: "js" },
    bundle: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0]?.text ?? "";
}

/**
 * workerd serving `workerScript` on a free loopback port, allowed to fetch loopback addresses
 * (workerd's default network reaches only public ones). No Node.js compatibility flag: the
 * bundle must not need it.
 */
export async function startWorkerd(
  workerScript: string,
): Promise<{ url: string; child: ChildProcess; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), "junction-workerd-"));
  writeFileSync(join(dir, "worker.js"), workerScript);
  const port = await freePort();
  writeFileSync(
    join(dir, "config.capnp"),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .program),
    (name = "loopback", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const program :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "worker.js") ],
  compatibilityDate = "2025-09-01",
  globalOutbound = "loopback",
);
`,
  );
  const child = spawn(bin("workerd"), ["serve", join(dir, "config.capnp"), "--verbose"], {
    cwd: dir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  // workerd prints nothing when it is ready: poll its socket.
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`workerd exited with ${child.exitCode}:\n${output}`);
    try {
      await fetch(`${url}/ready`, { method: "HEAD" });
      break;
    } catch {
      if (attempt > 200) throw new Error(`workerd did not listen on ${url}:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return { url, child, dir };
}

/** Removes a folder the test made. */
export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * The page's origin: serves an HTML page that loads `bundle`, and passes `/v1/…` on to the
 * Chat Completions endpoint at `chatOrigin`, as a same-origin proxy (the local fake sends no CORS
 * headers, as many local servers do not). The MCP server is reached cross-origin: it sends CORS headers.
 */
export async function startPageServer(
  bundle: string,
  chatOrigin: string,
): Promise<{ url: string; server: Server }> {
  const target = new URL(chatOrigin);
  const server = createServer((request, response) => {
    const path = request.url ?? "/";
    if (path === "/") {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end('<!doctype html><meta charset="utf-8"><title>junction</title><body></body>');
    } else if (path === "/page.js") {
      response.writeHead(200, { "content-type": "text/javascript; charset=utf-8" });
      response.end(bundle);
    } else if (path.startsWith("/v1/")) {
      const upstream = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          path,
          method: request.method,
          headers: { ...request.headers, host: target.host },
        },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      upstream.on("error", (error) => {
        response.writeHead(502);
        response.end(String(error));
      });
      request.pipe(upstream);
    } else {
      response.writeHead(404);
      response.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server };
}
