// The official MCP Inspector CLI (`@modelcontextprotocol/inspector --cli`, from npm) as a real
// client of a server built with @junction/mcp-server: spawned over stdio, and over Streamable
// HTTP with a bearer token.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type RunningHTTPServer, serveHTTP } from "@junction/mcp-server/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs fixture without types
import { notesServer } from "./support/junction-mcp-server.mjs";

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const inspectorPackage = require.resolve("@modelcontextprotocol/inspector/package.json");
const inspector = join(dirname(inspectorPackage), "clients/launcher/build/index.js");
const serverScript = join(dirname(fileURLToPath(import.meta.url)), "support/junction-mcp-server.mjs");
// The CLI keeps a catalog of servers (default ~/.mcp-inspector): this run's goes to a folder of its own.
const catalog = mkdtempSync(join(tmpdir(), "junction-inspector-"));
afterAll(() => rmSync(catalog, { recursive: true, force: true }));

/**
 * Runs the Inspector CLI: its exit code, the JSON it printed on stdout (a tool result whose
 * `isError` is set is printed too, with exit code 5), and its stderr.
 */
async function inspect(
  target: string[],
  args: string[],
): Promise<{ code: number; json?: any; stderr: string }> {
  const parse = (stdout: string) => (stdout.trim() ? JSON.parse(stdout) : undefined);
  try {
    const { stdout, stderr } = await run(process.execPath, [inspector, "--cli", ...target, ...args], {
      env: { ...process.env, MCP_CATALOG_PATH: join(catalog, "mcp.json") },
      timeout: 60_000,
    });
    return { code: 0, json: parse(stdout), stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, json: parse(failed.stdout ?? ""), stderr: failed.stderr ?? "" };
  }
}

const expectedTools = [
  {
    name: "add",
    description: "Adds two numbers",
    inputSchema: {
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: "shout",
    description: "Upper-cases a text",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    outputSchema: { type: "object", properties: { loud: { type: "string" } }, required: ["loud"] },
  },
];

function checkTools(json: { tools: Record<string, unknown>[] }) {
  // What the CLI prints is the server's list as it came: compare the fields the server set.
  expect(
    json.tools.map((tool) => {
      const {
        $schema: _ignored,
        additionalProperties: _open,
        ...inputSchema
      } = tool.inputSchema as Record<string, unknown>;
      return {
        name: tool.name,
        description: tool.description,
        inputSchema,
        ...(tool.annotations ? { annotations: tool.annotations } : {}),
        ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
      };
    }),
  ).toEqual(expectedTools);
}

describe("the MCP Inspector CLI against a @junction/mcp-server server", () => {
  it("over stdio: lists the tools and calls them", async () => {
    const target = [process.execPath, serverScript];
    const listed = await inspect(target, ["--method", "tools/list"]);
    expect(listed.code, listed.stderr).toBe(0);
    checkTools(listed.json);
    const added = await inspect(target, [
      "--method",
      "tools/call",
      "--tool-name",
      "add",
      "--tool-arg",
      "a=20",
      "b=22",
    ]);
    expect(added.json).toEqual({ content: [{ type: "text", text: "42" }] });
    const shouted = await inspect(target, [
      "--method",
      "tools/call",
      "--tool-name",
      "shout",
      "--tool-arg",
      "text=hi",
    ]);
    expect(shouted.json).toEqual({
      content: [{ type: "text", text: "HI" }],
      structuredContent: { loud: "HI" },
    });
    // A tool result with isError: the CLI prints it and exits 5.
    const invalid = await inspect(target, [
      "--method",
      "tools/call",
      "--tool-name",
      "add",
      "--tool-arg",
      "a=1",
    ]);
    expect(invalid.code).toBe(5);
    expect(invalid.json).toEqual({
      content: [
        {
          type: "text",
          text: 'Invalid input for tool "add":\n✖ Invalid input: expected number, received undefined\n  → at b',
        },
      ],
      isError: true,
    });
  });

  describe("over Streamable HTTP with a bearer token", () => {
    let served: RunningHTTPServer;
    beforeAll(async () => {
      served = await serveHTTP(notesServer(), {
        auth: {
          resource: "http://127.0.0.1/mcp",
          authorizationServers: ["http://127.0.0.1/"],
          verifyToken: (token) =>
            token === "inspector-token"
              ? {
                  token,
                  clientId: "inspector",
                  scopes: [],
                  expiresAt: Math.floor(Date.now() / 1000) + 3600,
                  resource: new URL("http://127.0.0.1/mcp"),
                }
              : undefined,
        },
      });
    });
    afterAll(() => served.close());

    it("lists the tools and calls one", async () => {
      const target = [served.url, "--transport", "http", "--header", "Authorization: Bearer inspector-token"];
      const listed = await inspect(target, ["--method", "tools/list"]);
      expect(listed.code, listed.stderr).toBe(0);
      checkTools(listed.json);
      const added = await inspect(target, [
        "--method",
        "tools/call",
        "--tool-name",
        "add",
        "--tool-arg",
        "a=2",
        "b=3",
      ]);
      expect(added.json).toEqual({ content: [{ type: "text", text: "5" }] });
    });

    it("without the token the CLI is refused", async () => {
      // --stored-auth-only: no browser OAuth flow, the 401's challenge is reported as it came.
      const refused = await inspect(
        [served.url, "--transport", "http", "--stored-auth-only"],
        ["--method", "tools/list"],
      );
      expect(refused.code).toBe(3);
      expect(refused.json).toBeUndefined();
      expect(JSON.parse(refused.stderr)).toEqual({
        error: {
          code: "auth_required",
          message:
            'Error POSTing to endpoint: {"error":"invalid_token","error_description":"Missing Authorization header"}',
        },
      });
    });
  });
});
