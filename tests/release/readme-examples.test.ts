// The code in the READMEs is what users copy first: every block that imports a Junction package
// must compile against the packages as built, and the ones that need no network or key must run.
// The @junction/otel example runs too, offline: its MCP server from tests/node_modules, its model
// the Anthropic wire fake, its spans read from an in-memory exporter.
import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { readSSEFixture, startWireFake } from "@junction/wire-fake";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publishedPackageDirs } from "./published-packages.ts";
import { examplesIn } from "./readme-code.ts";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../..", import.meta.url));
// Inside tests/, so the examples resolve @junction/* and zod as a consumer's project would.
const work = fileURLToPath(new URL("../.readme-examples", import.meta.url));

const readmes = ["README.md", ...publishedPackageDirs.map((dir) => `${dir}/README.md`)];

/** Examples that need no network, no API key and no MCP server from npm: these are run too. */
const offline = [
  { readme: "packages/types/README.md", block: 0, prints: "provider-config-invalid parrot repeats text" },
  { readme: "packages/core/README.md", block: 1, prints: "2 + 3 = 5." },
  { readme: "packages/core/README.md", block: 2, prints: "[ 'write_note' ]\nNoted." },
  {
    readme: "packages/core/README.md",
    block: 3,
    prints: "{}\n{ city: 'Paris' }\n{ city: 'Paris', temperatureC: 21 }\n21",
  },
  {
    readme: "packages/core/README.md",
    block: 4,
    prints: `[ 'call_1_1.2 label_issue {"number":2,"label":"stale"}' ]\nLabelled 2 and 4.`,
  },
];

interface Example {
  readme: string;
  /** Index among the README's examples (code blocks that import a package). */
  block: number;
  file: string;
}

const examples: Example[] = [];

beforeAll(async () => {
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  for (const readme of readmes) {
    const blocks = examplesIn(await readFile(join(root, readme), "utf8"));
    for (const [block, code] of blocks.entries()) {
      const file = join(work, `${readme.replaceAll("/", "_").replace(/\.md$/, "")}-${block}.ts`);
      await writeFile(file, code);
      examples.push({ readme, block, file });
    }
  }
  // What a consumer's strict TypeScript project would use.
  await writeFile(
    join(work, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2023",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        allowImportingTsExtensions: true,
        types: ["node"],
      },
      include: ["*.ts"],
    }),
  );
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe("README examples", () => {
  it("every README that shows code has at least one whole example", () => {
    const withExamples = new Set(examples.map((example) => example.readme));
    expect(readmes.filter((readme) => !withExamples.has(readme))).toEqual([]);
  });

  it("all compile against the built packages", async () => {
    const tsc = join(root, "node_modules/typescript/bin/tsc");
    const result = await run(process.execPath, [tsc, "-p", work], { cwd: work }).then(
      () => "",
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    // Name the README and block, not the temporary file.
    const named = result.replaceAll(/^(\S+?)-(\d+)\.ts/gm, (_, base: string, block: string) => {
      const example = examples.find((e) => relative(work, e.file) === `${base}-${block}.ts`);
      return example ? `${example.readme} (example ${Number(block) + 1})` : `${base}-${block}.ts`;
    });
    expect(named).toBe("");
  }, 120_000);

  it.each(offline)(
    "$readme example $block runs and prints what it says",
    async ({ readme, block, prints }) => {
      const example = examples.find((e) => e.readme === readme && e.block === block);
      expect(example, `${readme} has no example ${block}`).toBeDefined();
      const { stdout } = await run(process.execPath, [example?.file ?? ""], { cwd: work, timeout: 60_000 });
      expect(stdout).toContain(prints);
    },
  );
});

/** A span as tests/support/in-memory-otel-sdk.mjs writes it. */
interface RecordedSpan {
  name: string;
  kind: string;
  scope: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: Record<string, unknown>;
}

describe("the @junction/otel README's Use example", () => {
  // Run as written, after an OpenTelemetry SDK is set up (preloaded: global providers with an
  // in-memory exporter), with server-everything from tests/node_modules through npx (offline) and
  // the Anthropic provider against the local wire fake, through the variables a user would set.
  it("runs against server-everything and the Anthropic wire fake, and its spans are the conventions'", async () => {
    const example = examples.find((e) => e.readme === "packages/otel/README.md" && e.block === 0);
    expect(example, "packages/otel/README.md has no first example").toBeDefined();
    const fake = await startWireFake();
    const fixture = (name: string) =>
      readSSEFixture(new URL(`../__fixtures__/anthropic/${name}`, import.meta.url));
    fake.enqueue(
      { chunks: fixture("anthropic-tiny-image-tool-call.sse.txt") },
      { chunks: fixture("anthropic-logo-answer.sse.txt") },
    );
    const spansFile = join(work, "otel-use-spans.json");
    const preload = pathToFileURL(
      fileURLToPath(new URL("../support/in-memory-otel-sdk.mjs", import.meta.url)),
    );
    try {
      const { stdout } = await run(process.execPath, ["--import", preload.href, example?.file ?? ""], {
        cwd: work,
        timeout: 60_000,
        env: {
          ...process.env,
          ANTHROPIC_API_KEY: "test-key",
          ANTHROPIC_BASE_URL: fake.url,
          JUNCTION_TEST_SPANS_FILE: spansFile,
          // npx finds server-everything in tests/node_modules; never the registry.
          npm_config_offline: "true",
        },
      });
      expect(stdout).toContain("It is the MCP logo.");
    } finally {
      await fake.close();
    }
    expect(fake.requests.map((request) => request.path)).toEqual(["/v1/messages", "/v1/messages"]);

    const spans: RecordedSpan[] = JSON.parse(await readFile(spansFile, "utf8"));
    const named = (name: string) => spans.filter((span) => span.name === name);
    // The run's spans: one run, two model turns, one tool; no vendor SDK's span beside them.
    expect(spans.map((span) => span.scope).filter((scope) => scope !== "@junction/otel")).toEqual([]);
    const [agentRun] = named("invoke_agent junction");
    expect(named("invoke_agent junction")).toHaveLength(1);
    expect(agentRun).toMatchObject({
      kind: "INTERNAL",
      attributes: {
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.provider.name": "anthropic",
        "gen_ai.request.model": "claude-sonnet-5-5",
      },
    });
    const chats = named("chat claude-sonnet-5-5");
    expect(chats.map((span) => [span.kind, span.attributes["gen_ai.response.finish_reasons"]])).toEqual([
      ["CLIENT", ["tool_call"]],
      ["CLIENT", ["stop"]],
    ]);
    const tools = named("execute_tool get-tiny-image");
    expect(tools).toHaveLength(1);
    expect(tools[0]?.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "get-tiny-image",
      "gen_ai.tool.type": "extension",
      "mcp.method.name": "tools/call",
      "network.transport": "pipe",
    });
    for (const span of [...chats, ...tools]) {
      expect(span.traceId).toBe(agentRun?.traceId);
      expect(span.parentSpanId).toBe(agentRun?.spanId);
    }
    // connect()'s handshake, before the run; the run's tools/list inside its trace.
    expect(named("initialize").map((span) => [span.kind, span.attributes["network.transport"]])).toEqual([
      ["CLIENT", "pipe"],
    ]);
    const lists = named("tools/list");
    expect(lists.length).toBeGreaterThan(0);
    expect(lists.filter((span) => span.traceId !== agentRun?.traceId)).toEqual([]);
  }, 90_000);
});

describe("the @junction/mcp-server README's bearer-auth example", () => {
  // Run as written but on a free port (the README's 3000 may be taken on a busy machine): it says
  // where it listens, refuses a request without a token and takes one with the token it reads.
  it("prints its endpoint, answers 401 without a token and serves a client with one", async () => {
    const example = examples.find((e) => e.readme === "packages/mcp-server/README.md" && isAuthExample(e));
    expect(example, "packages/mcp-server/README.md has no example with verifyToken").toBeDefined();
    const code = await readFile(example?.file ?? "", "utf8");
    expect(code).toContain("port: 3000,");
    const onFreePort = `${example?.file}.free-port.ts`;
    await writeFile(onFreePort, code.replace("port: 3000,", "port: 0,"));
    const child = spawn(process.execPath, [onFreePort], {
      cwd: work,
      env: { ...process.env, MCP_TOKEN: "secret-token" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    try {
      const [line] = (await once(createInterface({ input: child.stdout }), "line")) as [string];
      const url = /^MCP endpoint: (http:\/\/127\.0\.0\.1:\d+\/mcp)$/.exec(line)?.[1];
      expect(url, `the example printed ${JSON.stringify(line)}`).toBeDefined();
      const initialize = (token?: string) =>
        fetch(url ?? "", {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: {
              protocolVersion: "2025-11-25",
              capabilities: {},
              clientInfo: { name: "t", version: "1" },
            },
          }),
        });
      const anonymous = await initialize();
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get("www-authenticate")).toContain("resource_metadata=");
      expect((await initialize("wrong-token")).status).toBe(401);
      const served = await initialize("secret-token");
      expect(served.status).toBe(200);
      expect(await served.text()).toContain('"serverInfo"');
    } finally {
      child.kill();
      await rm(onFreePort, { force: true });
    }
  }, 60_000);
});

describe("the @junction/mcp-server README's gateway example", () => {
  it("asks for GITHUB_TOKEN by name instead of connecting to GitHub anonymously", async () => {
    const example = examples.find(
      (e) =>
        e.readme === "packages/mcp-server/README.md" && readFileSync(e.file, "utf8").includes("gateway({"),
    );
    expect(example, "packages/mcp-server/README.md has no gateway example").toBeDefined();
    const { GITHUB_TOKEN: _unset, ...env } = process.env;
    const failure = await run(process.execPath, [example?.file ?? ""], {
      cwd: work,
      env,
      timeout: 30_000,
    }).then(
      () => undefined,
      (error: { stderr?: string }) => error.stderr ?? String(error),
    );
    expect(failure).toContain("Set GITHUB_TOKEN to a GitHub token");
  }, 60_000);
});

function isAuthExample(example: Example): boolean {
  return readFileSync(example.file, "utf8").includes("verifyToken");
}
