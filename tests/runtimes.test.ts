// The same small program (an Agent turn with the scripted model, MCP over Streamable HTTP to
// server-everything, a Chat Completions turn that calls the server's tool, and a stdio server)
// on every runtime Junction supports: Node.js, Bun and Deno running the installed packages as a
// user imports them, and the root entries bundled by esbuild for the browser, with nothing
// stubbed, running in workerd (Cloudflare Workers' runtime) and in headless Chromium.

import type { ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import type { Server } from "node:http";
import { join } from "node:path";
import type { WireFake } from "@junction/wire-fake";
import { startChatCompletionsToolLoop } from "@junction/wire-fake/chat-completions-tool-loop";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publishedPackageDirs } from "./release/published-packages.js";
import {
  bundleForBrowser,
  bundleImportForBrowser,
  everythingEntry,
  type ProgramOptions,
  removeDir,
  runtimesDir,
  runUnbundled,
  startEverythingHttp,
  startPageServer,
  startWorkerd,
  stop,
} from "./runtimes/harness.js";

const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

let everything: { url: string; child: ChildProcess };
let fake: WireFake;
let options: ProgramOptions;

beforeAll(async () => {
  [everything, fake] = await Promise.all([
    startEverythingHttp(),
    startChatCompletionsToolLoop({
      toolName: "echo",
      toolSteps: 1,
      toolArguments: () => ({ message: "hi from the model" }),
      finalText: (results) => `The server said: ${results.join(" | ")}`,
    }),
  ]);
  options = {
    mcpURL: everything.url,
    chatBaseURL: `${fake.url}/v1`,
    // Node.js starts the stdio server in every runtime that can start one.
    stdio: { command: process.execPath, args: [everythingEntry, "stdio"] },
  };
}, 60_000);

afterAll(async () => {
  await fake?.close();
  if (everything) await stop(everything.child);
});

/** What every runtime must do the same way, and the two requests the model's endpoint received. */
function expectTheProgramRan(outcome: unknown, requestsBefore: number) {
  const result = outcome as Record<string, unknown>;
  expect(result.agent).toEqual({ text: "2 + 3 = 5.", toolResultSent: "5" });
  expect(result.mcp).toEqual({
    kind: "mcp-servers/everything",
    echo: [{ type: "text", text: "Echo: hello over HTTP" }],
  });
  expect(result.chat).toEqual({
    toolCalls: [{ name: "echo", input: { message: "hi from the model" } }],
    toolResults: [{ name: "echo", content: [{ type: "text", text: "Echo: hi from the model" }] }],
    text: "The server said: Echo: hi from the model",
    finishReason: "stop",
  });
  const requests = fake.requests.slice(requestsBefore);
  expect(requests.map((request) => request.path)).toEqual(["/v1/chat/completions", "/v1/chat/completions"]);
  const tools = (requests[0]?.body.tools ?? []) as { function: { name: string } }[];
  expect(tools.map((tool) => tool.function.name)).toContain("echo");
  // No key was given: none is sent.
  expect(requests[0]?.headers.authorization).toBeUndefined();
  const messages = requests[1]?.body.messages as { role: string; content: unknown }[];
  expect(messages.at(-1)).toMatchObject({ role: "tool", content: "Echo: hi from the model" });
}

describe.each(["node", "bun", "deno"] as const)("%s, the packages as installed", (runtime) => {
  it('runs the program, stdio included: `import { MCP } from "@junction/mcp-client"` has it', async () => {
    const before = fake.requests.length;
    const outcome = (await runUnbundled(runtime, options)) as { stdio: unknown };
    expectTheProgramRan(outcome, before);
    expect(outcome.stdio).toEqual({ echo: [{ type: "text", text: "Echo: hello over stdio" }] });
  });
});

// Durable runs need their engine's server-side SDK (DBOS on PostgreSQL, Restate's HTTP/2
// endpoint), and the local sentence model runs in Node's worker threads with its vectors cached
// on disk: these packages are for servers by nature and are not meant for browsers. Not yet
// bundled here either: the QuickJS sandbox, whose default build (WebAssembly inlined) loads through
// Node's `module`; a browser or a Worker passes it the separate-.wasm build (its `variant` option),
// which was checked by hand on workerd, not by this suite.
const serverOnly = [
  "@junction/dbos",
  "@junction/restate",
  "@junction/embed-minilm",
  "@junction/sandbox-quickjs",
];
const publishedNames = publishedPackageDirs.map(
  (dir) =>
    (JSON.parse(readFileSync(join(runtimesDir, "..", "..", dir, "package.json"), "utf8")) as { name: string })
      .name,
);

describe("every published package's root entry, bundled by esbuild for the browser", () => {
  it.each(publishedNames.filter((name) => !serverOnly.includes(name)))(
    "%s bundles with nothing stubbed and no Node built-ins",
    async (name) => {
      const bundle = await bundleImportForBrowser(name);
      expect(bundle.length).toBeGreaterThan(0);
      expect(bundle).not.toMatch(/from\s*"(node:)?(child_process|fs|path|stream|process)"/);
    },
  );

  it("leaves out only the server-side packages and the sandbox", () => {
    expect(publishedNames.filter((name) => serverOnly.includes(name))).toEqual(serverOnly);
  });
});

describe("the root entries bundled by esbuild for the browser, nothing stubbed", () => {
  it("workerd (Cloudflare Workers) runs the program; stdio is a clear error", async () => {
    const bundle = await bundleForBrowser("worker.mjs", ["workerd", "worker"]);
    expect(bundle).not.toContain("node:child_process");
    const workerd = await startWorkerd(bundle);
    try {
      const before = fake.requests.length;
      const response = await fetch(`${workerd.url}/?options=${encodeURIComponent(JSON.stringify(options))}`);
      const outcome = (await response.json()) as { stdio: { error: { code: string; message: string } } };
      expect(response.status, JSON.stringify(outcome)).toBe(200);
      expectTheProgramRan(outcome, before);
      expect(outcome.stdio.error.code).toBe("mcp-transport-unsupported");
      expect(outcome.stdio.error.message).toContain(
        'MCP server "local" uses the stdio transport, which starts a process, and this runtime (Cloudflare Workers) cannot',
      );
    } finally {
      await stop(workerd.child);
      removeDir(workerd.dir);
    }
  });

  it("headless Chromium runs the program in a page; stdio is a clear error", async () => {
    if (!existsSync(chromiumPath)) {
      throw new Error(
        `This test needs Chromium at ${chromiumPath}: apt-get install chromium, or set CHROMIUM_PATH.`,
      );
    }
    const bundle = await bundleForBrowser("page.mjs");
    const page = await startPageServer(bundle, fake.url);
    const browser = await chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
      ],
    });
    try {
      const tab = await browser.newPage();
      const pageErrors: string[] = [];
      tab.on("pageerror", (error) => pageErrors.push(error.message));
      // The page's own origin proxies the model's endpoint; the MCP server is reached cross-origin.
      const pageOptions = { ...options, chatBaseURL: `${page.url}/v1` };
      await tab.goto(page.url);
      await tab.evaluate((programOptions) => {
        (window as unknown as { programOptions: unknown }).programOptions = programOptions;
      }, pageOptions);
      const before = fake.requests.length;
      await tab.addScriptTag({ url: "/page.js", type: "module" });
      const { outcome, failed } = (await tab.evaluate(
        () => (window as unknown as { programOutcome: Promise<unknown> }).programOutcome,
      )) as { outcome?: { stdio: { error: { code: string; message: string } } }; failed?: string };
      expect(failed).toBeUndefined();
      expectTheProgramRan(outcome, before);
      expect(outcome?.stdio.error.code).toBe("mcp-transport-unsupported");
      expect(outcome?.stdio.error.message).toContain(
        'MCP server "local" uses the stdio transport, which starts a process, and this runtime (a browser page) cannot',
      );
      expect(pageErrors).toEqual([]);
    } finally {
      await browser.close();
      await new Promise<void>((resolve) => (page.server as Server).close(() => resolve()));
    }
  });
});
