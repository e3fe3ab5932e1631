import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

// A malformed line on a served stdio connection, as a broken client writes it: answered with the
// JSON-RPC parse (-32700) or invalid-request (-32600) error, named on stderr, and the server goes
// on serving. Real child process, real stdin/stdout.

const script = fileURLToPath(new URL("../test-servers/stdio-server.mjs", import.meta.url));
const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGTERM");
});

/** The spawned server, with every stdout line parsed and every stderr line kept, awaited by count. */
function serve() {
  const child = spawn(process.execPath, [script], { stdio: ["pipe", "pipe", "pipe"] });
  children.push(child);
  const stdout: string[] = [];
  const stderr: string[] = [];
  const waiters: (() => void)[] = [];
  const collect = (into: string[]) => {
    let rest = "";
    return (chunk: Buffer) => {
      rest += chunk.toString("utf8");
      const lines = rest.split("\n");
      rest = lines.pop() ?? "";
      into.push(...lines);
      for (const wake of waiters.splice(0)) wake();
    };
  };
  child.stdout.on("data", collect(stdout));
  child.stderr.on("data", collect(stderr));
  const until = async (check: () => boolean) => {
    while (!check()) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  return {
    write: (line: string) => child.stdin.write(`${line}\n`),
    /** The n-th stdout line (1-based), parsed: every line must be JSON-RPC. */
    answer: async (n: number) => {
      await until(() => stdout.length >= n);
      return JSON.parse(stdout[n - 1] as string) as Record<string, unknown>;
    },
    stderrLines: async (n: number) => {
      await until(() => stderr.length >= n);
      return stderr.slice(0, n);
    },
    stdout,
  };
}

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1.0.0" } },
});
const ADD = (id: number) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "add", arguments: { a: 2, b: 3 } },
  });
const DISCOVER_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

const MALFORMED: [string, string, number, string | number | null, string][] = [
  ["not JSON", "hello there", -32700, null, "the line is not JSON"],
  ["cut-short JSON", '{"jsonrpc":"2.0","id":5,"method":"tools/li', -32700, null, "the line is not JSON"],
  [
    "JSON that is not JSON-RPC (no jsonrpc)",
    '{"id":6,"method":"ping"}',
    -32600,
    6,
    'the message\'s "jsonrpc" is missing',
  ],
  [
    "a non-string method",
    '{"jsonrpc":"2.0","id":7,"method":42}',
    -32600,
    7,
    'the message\'s "method" is number, not a string',
  ],
  ["a batch", '[{"jsonrpc":"2.0","id":8,"method":"ping"}]', -32600, null, "a JSON-RPC batch"],
  ["a JSON number", "42", -32600, null, "JSON but not an object"],
  [
    "an object id",
    '{"jsonrpc":"2.0","id":{"n":9},"method":"ping"}',
    -32600,
    null,
    'the message\'s "id" is {"n":9}',
  ],
  [
    "neither request nor response",
    '{"jsonrpc":"2.0","id":10}',
    -32600,
    10,
    "not a JSON-RPC request, notification or response",
  ],
];

describe("stdio: malformed lines are answered and the server keeps serving", () => {
  it("before the opening and within a 2025-11-25 connection", async () => {
    const server = serve();
    server.write(MALFORMED[0]?.[1] as string);
    expect(await server.answer(1)).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
    server.write(INITIALIZE);
    expect(await server.answer(2)).toMatchObject({ id: 1, result: { protocolVersion: "2025-11-25" } });
    server.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
    let n = 2;
    for (const [what, line, code, id, named] of MALFORMED) {
      server.write(line);
      const answer = await server.answer(++n);
      expect(answer, what).toEqual({
        jsonrpc: "2.0",
        id,
        error: { code, message: expect.stringContaining(named) },
      });
    }
    server.write(ADD(11));
    expect(await server.answer(++n)).toEqual({
      jsonrpc: "2.0",
      id: 11,
      result: { content: [{ type: "text", text: "5" }] },
    });
    const stderr = await server.stderrLines(MALFORMED.length + 1);
    expect(stderr).toHaveLength(MALFORMED.length + 1);
    // The line before the opening was the first of MALFORMED again.
    const named = [MALFORMED[0], ...MALFORMED].map((entry) => entry?.[4] as string);
    for (const [index, line] of stderr.entries()) {
      expect(line).toMatch(/^mcp-server \(stdio\): refused a line from the client: /);
      expect(line).toContain(named[index]);
    }
    // Nothing but JSON-RPC on stdout.
    for (const line of server.stdout) expect(JSON.parse(line)).toMatchObject({ jsonrpc: "2.0" });
  });

  it("within a 2026-07-28 connection, a blank line skipped and CRLF accepted", async () => {
    const server = serve();
    server.write(
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: DISCOVER_META } }),
    );
    expect(await server.answer(1)).toMatchObject({ id: 1, result: { supportedVersions: expect.any(Array) } });
    server.write("");
    server.write('{"jsonrpc":"2.0","id":2,"method":');
    expect(await server.answer(2)).toMatchObject({ id: null, error: { code: -32700 } });
    server.write('{"jsonrpc":"2.0","id":3,"method":["tools/call"]}\r');
    expect(await server.answer(3)).toMatchObject({ id: 3, error: { code: -32600 } });
    const call = JSON.parse(ADD(4));
    call.params._meta = DISCOVER_META;
    server.write(`${JSON.stringify(call)}\r`);
    expect(await server.answer(4)).toMatchObject({
      id: 4,
      result: { content: [{ type: "text", text: "5" }] },
    });
    expect(await server.stderrLines(2)).toEqual([
      expect.stringContaining("the line is not JSON"),
      expect.stringContaining('the message\'s "method" is object, not a string'),
    ]);
  });
});

describe("stdio: a line longer than maxLineBytes", () => {
  it("is refused once, skipped to its end, and the next line is read", async () => {
    const { PassThrough } = await import("node:stream");
    const { LineAnsweringStdioTransport } = await import("./stdio-transport.js");
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const transport = new LineAnsweringStdioTransport({ stdin, stdout, stderr, maxLineBytes: 64 });
    const messages: unknown[] = [];
    const read = new Promise<void>((resolve) => {
      transport.onmessage = (message) => {
        messages.push(message);
        resolve();
      };
    });
    await transport.start();
    stdin.write(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${"x".repeat(100)}`);
    stdin.write(`${"y".repeat(100)}"}}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n`);
    await read;
    expect(messages).toEqual([{ jsonrpc: "2.0", id: 2, method: "ping" }]);
    expect(JSON.parse(String(stdout.read()))).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32600,
        message:
          "Invalid Request: a line is longer than 64 bytes (the transport's `maxLineBytes`); it is skipped to its end",
      },
    });
    expect(String(stderr.read())).toContain("a line is longer than 64 bytes");
    await transport.close();
  });
});
