// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these tests are about literal ${VAR} placeholders in config files
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { JunctionError } from "@junction/types";
import { describe, expect, it } from "vitest";
import { loadMCPConfig, type MCPConfigWarning } from "./load-mcp-config.js";

const env = { HOME: "/home/ada", GITHUB_TOKEN: "ghp_secret123", PORT: "8080" };

function failure(run: () => unknown): JunctionError {
  try {
    run();
  } catch (error) {
    if (JunctionError.isInstance(error)) return error;
    throw error;
  }
  throw new JunctionError("invalid-argument", "expected a throw");
}

describe("loadMCPConfig", () => {
  it("reads Claude Desktop / Cursor mcpServers with ${VAR} and ${env:VAR} substitution", () => {
    const configs = loadMCPConfig(
      {
        mcpServers: {
          files: {
            command: "npx",
            args: ["-y", "@modelcontextprotocol/server-filesystem", "${HOME}/projects"],
            env: { GITHUB_TOKEN: "${env:GITHUB_TOKEN}", DEBUG: 1 },
            cwd: "${HOME}",
          },
          remote: {
            url: "http://localhost:${PORT}/mcp",
            headers: { Authorization: "Bearer ${GITHUB_TOKEN}" },
          },
          explicit: { type: "streamable-http", url: "https://mcp.example.com/mcp" },
          legacy: { type: "sse", url: "https://old.example.com/sse" },
        },
      },
      env,
    );
    expect(configs).toEqual({
      files: {
        transport: "stdio",
        name: "files",
        command: "npx",
        args: ["-y", "@modelcontextprotocol/server-filesystem", "/home/ada/projects"],
        env: { GITHUB_TOKEN: "ghp_secret123", DEBUG: "1" },
        cwd: "/home/ada",
      },
      remote: {
        transport: "http",
        name: "remote",
        url: "http://localhost:8080/mcp",
        headers: { Authorization: "Bearer ghp_secret123" },
        sseFallback: true,
      },
      explicit: {
        transport: "http",
        name: "explicit",
        url: "https://mcp.example.com/mcp",
        sseFallback: false,
      },
      legacy: { transport: "sse", name: "legacy", url: "https://old.example.com/sse" },
    });
  });

  it("reads a VS Code mcp.json file (servers, type, comments, trailing commas) synchronously", () => {
    const dir = mkdtempSync(join(tmpdir(), "junction-config-"));
    const file = join(dir, "mcp.json");
    writeFileSync(
      file,
      `{
  // VS Code allows comments
  "servers": {
    "memory": { "type": "stdio", "command": "node", "args": ["server.js", "a // not a comment"], },
    /* and block comments */
    "web": { "type": "http", "url": "http://127.0.0.1:3001/mcp" },
  },
}`,
    );
    expect(loadMCPConfig(file, env)).toEqual({
      memory: {
        transport: "stdio",
        name: "memory",
        command: "node",
        args: ["server.js", "a // not a comment"],
      },
      web: { transport: "http", name: "web", url: "http://127.0.0.1:3001/mcp", sseFallback: false },
    });
  });

  it("names the entry and field of an unset variable, without other values", () => {
    const error = failure(() =>
      loadMCPConfig(
        { mcpServers: { github: { command: "gh-mcp", env: { TOKEN: "${MISSING_TOKEN}" } } } },
        env,
      ),
    );
    expect(error.code).toBe("mcp-config-invalid");
    expect(error.message).toBe(
      'MCP server "github": env.TOKEN uses ${MISSING_TOKEN} but MISSING_TOKEN is not set in the environment',
    );
  });

  it("rejects what it cannot resolve or understand, naming entry and field", () => {
    const cases: [unknown, string][] = [
      [
        { mcpServers: { a: { command: "x", args: "not-a-list" } } },
        'MCP server "a": args must be an array of strings',
      ],
      [
        { mcpServers: { b: { type: "websocket", url: "ws://x" } } },
        'MCP server "b": type "websocket" is not one of stdio, http, streamable-http, sse',
      ],
      [{ mcpServers: { c: {} } }, 'MCP server "c": entry has neither "command" nor "url"'],
      [{ mcpServers: { d: { url: "not a url" } } }, 'MCP server "d": url is not a valid URL'],
      [
        { mcpServers: { e: { command: "x", args: ["${input:token}"] } } },
        'MCP server "e": args[0] uses ${input:token}, which loadMCPConfig cannot resolve (only ${VAR} and ${env:VAR})',
      ],
      [
        { mcpServers: { f: { url: "http://x", headers: { A: { nested: true } } } } },
        'MCP server "f": headers.A must be a string',
      ],
      [{ mcpServers: { g: "npx server" } }, 'MCP server "g": entry is not an object'],
      [
        { other: {} },
        'MCP config has no "mcpServers" (Claude Desktop, Cursor) or "servers" (VS Code) object',
      ],
    ];
    for (const [input, message] of cases) {
      expect(failure(() => loadMCPConfig(input as object, env)).message).toBe(message);
    }
  });

  it("reports a missing or broken file with its path", () => {
    const dir = mkdtempSync(join(tmpdir(), "junction-config-"));
    expect(failure(() => loadMCPConfig(join(dir, "absent.json"))).message).toMatch(
      /^could not read MCP config .*absent\.json: ENOENT/,
    );
    const broken = join(dir, "broken.json");
    writeFileSync(broken, "{ mcpServers: ");
    expect(failure(() => loadMCPConfig(broken)).message).toMatch(
      /^MCP config .*broken\.json is not valid JSON: /,
    );
  });
});

describe("loadMCPConfig with a chosen environment and options", () => {
  const pasted = {
    mcpServers: {
      tool: {
        command: "node",
        args: ["server.js", "--token=${GITHUB_TOKEN}"],
        env: { HOME_DIR: "${env:HOME}" },
      },
      remote: { url: "http://127.0.0.1:${PORT}/mcp", headers: { Authorization: "Bearer ${GITHUB_TOKEN}" } },
    },
  };

  it("reports every value it put in, with server, field and variable", () => {
    const seen: unknown[] = [];
    const configs = loadMCPConfig(pasted, env, { onSubstitution: (substitution) => seen.push(substitution) });
    expect(configs.tool).toMatchObject({ args: ["server.js", "--token=ghp_secret123"] });
    expect(seen).toEqual([
      { server: "tool", field: "args[1]", variable: "GITHUB_TOKEN", value: "ghp_secret123" },
      { server: "tool", field: "env.HOME_DIR", variable: "HOME", value: "/home/ada" },
      { server: "remote", field: "url", variable: "PORT", value: "8080" },
      { server: "remote", field: "headers.Authorization", variable: "GITHUB_TOKEN", value: "ghp_secret123" },
    ]);
  });

  it("reads only the map it is given, and words an unresolved variable as the caller asks", () => {
    const allowed = { HOME: "/home/ada", PORT: "8080" };
    const error = failure(() =>
      loadMCPConfig(pasted, allowed, { unresolvedVariable: (name) => `${name} is not set or not allowed` }),
    );
    expect(error.code).toBe("mcp-config-invalid");
    expect(error.message).toBe(
      'MCP server "tool": args[1] uses ${GITHUB_TOKEN} but GITHUB_TOKEN is not set or not allowed',
    );
    // The same words for a variable that exists nowhere: an error does not tell which exist.
    const absent = failure(() =>
      loadMCPConfig({ mcpServers: { x: { command: "${NO_SUCH_VARIABLE}" } } }, allowed, {
        unresolvedVariable: (name) => `${name} is not set or not allowed`,
      }),
    );
    expect(absent.message).toBe(
      'MCP server "x": command uses ${NO_SUCH_VARIABLE} but NO_SUCH_VARIABLE is not set or not allowed',
    );
  });

  it("never resolves a name from the map's prototype", () => {
    expect(
      failure(() => loadMCPConfig({ mcpServers: { x: { command: "${constructor}" } } }, {})).message,
    ).toBe('MCP server "x": command uses ${constructor} but constructor is not set in the environment');
  });
});

describe("unknown keys in an entry", () => {
  const typos = {
    mcpServers: {
      files: { command: "npx", arg: ["-y", "@modelcontextprotocol/server-filesystem"], disabled: false },
      remote: { url: "https://mcp.example.com/mcp", Headers: { "x-api-key": "k" } },
    },
  };

  it("are warnings with a did-you-mean suggestion by default, and the rest still loads", () => {
    const warnings: MCPConfigWarning[] = [];
    const configs = loadMCPConfig(typos, env, { onWarning: (warning) => warnings.push(warning) });
    expect(warnings).toEqual([
      {
        code: "mcp-config-unknown-key",
        server: "files",
        key: "arg",
        suggestion: "args",
        message: 'MCP server "files": unknown key "arg" is ignored (did you mean "args"?)',
      },
      {
        code: "mcp-config-unknown-key",
        server: "files",
        key: "disabled",
        message: 'MCP server "files": unknown key "disabled" is ignored',
      },
      {
        code: "mcp-config-unknown-key",
        server: "remote",
        key: "Headers",
        suggestion: "headers",
        message: 'MCP server "remote": unknown key "Headers" is ignored (did you mean "headers"?)',
      },
    ]);
    expect(configs.files).toEqual({ transport: "stdio", name: "files", command: "npx" });
  });

  it("go to process warnings when no onWarning is given, so a typo is never silent", async () => {
    const emitted: Error[] = [];
    const listener = (warning: Error) => emitted.push(warning);
    process.on("warning", listener);
    try {
      loadMCPConfig({ mcpServers: { files: { command: "npx", arg: ["x"] } } }, env);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", listener);
    }
    expect(emitted.map((warning) => [warning.name, warning.message])).toEqual([
      ["JunctionConfigWarning", 'MCP server "files": unknown key "arg" is ignored (did you mean "args"?)'],
    ]);
  });

  it("are an error in strict mode, naming every one", () => {
    const error = failure(() => loadMCPConfig(typos, env, { strict: true }));
    expect(error.code).toBe("mcp-config-invalid");
    expect(error.message).toBe('MCP server "files": unknown keys "arg" (did you mean "args"?), "disabled"');
  });

  it("explain an entry left without command or url", () => {
    const error = failure(() =>
      loadMCPConfig({ mcpServers: { files: { comand: "npx" } } }, env, { onWarning: () => undefined }),
    );
    expect(error.message).toBe(
      'MCP server "files": entry has neither "command" nor "url" (did you mean "command" for "comand"?)',
    );
  });
});
