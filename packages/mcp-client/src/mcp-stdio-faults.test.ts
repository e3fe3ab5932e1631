import { JunctionError } from "@junction/types";
import { afterEach, describe, expect, it, vi } from "vitest";
import { processAlive, testServer } from "../test/test-support.js";
import { MCP } from "./mcp.js";
import { NETWORK_ENVIRONMENT_VARIABLES } from "./stdio-environment.js";

const open: MCP[] = [];
function track(mcp: MCP): MCP {
  open.push(mcp);
  return mcp;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((mcp) => mcp.close()));
});

function stdio(
  file: string,
  extra: Partial<Extract<ConstructorParameters<typeof MCP>[0], { transport: "stdio" }>> = {},
) {
  return track(
    new MCP({ transport: "stdio", command: process.execPath, args: [testServer(file)], ...extra }),
  );
}

async function caught(promise: Promise<unknown>): Promise<JunctionError> {
  try {
    await promise;
  } catch (error) {
    if (JunctionError.isInstance(error)) return error;
    throw error;
  }
  throw new JunctionError("invalid-argument", "expected a rejection");
}

function text(result: { content: { type: string }[] }): string {
  const part = result.content[0] as { type: string; text?: string };
  return part.text ?? "";
}

describe("a stdio server that crashes", () => {
  it("rejects the call in flight, restarts with backoff, and the next call works", async () => {
    const mcp = stdio("crash-server.mjs", {
      name: "crashy",
      reconnect: { initialDelayMs: 50, maxAttempts: 3 },
    });
    await mcp.connect();
    const firstPid = Number(text(await mcp.callTool("pid")));
    const changes = vi.fn();
    mcp.onToolsChanged(changes);

    const error = await caught(mcp.callTool("crash", { delayMs: 20 }));
    expect(error.code).toBe("mcp-connection-closed");
    expect(error.message).toBe(
      'connection to MCP server "crashy" closed during tools/call; the request had been sent, so the server may have acted on it, and it was not sent again',
    );
    expect(mcp.connected).toBe(false);

    // A call made while reconnecting waits for the new process.
    const secondPid = Number(text(await mcp.callTool("pid")));
    expect(mcp.connected).toBe(true);
    expect(secondPid).not.toBe(firstPid);
    expect(processAlive(firstPid)).toBe(false);
    // The restarted server may have other tools: listeners hear about it.
    expect(changes).toHaveBeenCalled();
  });

  it("bounds a call waiting for the reconnect by its timeout", async () => {
    const mcp = stdio("crash-server.mjs", {
      name: "sleepy",
      reconnect: { initialDelayMs: 5000, maxAttempts: 1 },
    });
    await mcp.connect();
    await caught(mcp.callTool("crash", { delayMs: 10 }));
    expect(mcp.connected).toBe(false);
    const error = await caught(mcp.callTool("pid", {}, { timeoutMs: 150 }));
    expect(error.code).toBe("mcp-timeout");
    expect(error.message).toBe(
      'MCP server "sleepy" was still reconnecting when tools/call timed out after 150 ms',
    );
  });

  it("gives up after maxAttempts and says so", async () => {
    const mcp = stdio("crash-server.mjs", {
      name: "doomed",
      reconnect: { initialDelayMs: 20, maxAttempts: 2 },
    });
    await mcp.connect();
    // Make every restart fail: the server's script disappears from under it.
    (mcp as unknown as { config: { args: string[] } }).config.args = [testServer("fail-start-server.mjs")];
    await caught(mcp.callTool("crash", { delayMs: 10 }));
    // Waiting through the attempts (mcp-connection-closed) or arriving after them (mcp-not-connected).
    const error = await caught(mcp.callTool("pid", {}, { timeoutMs: 10_000 }));
    expect(["mcp-connection-closed", "mcp-not-connected"]).toContain(error.code);
    expect(error.message).toMatch(/MCP server "doomed" stopped and could not be restarted after 2 attempts/);
    expect(error.message).toMatch(/exited with code 3/);
  });

  it("with reconnect: false, stays down and says why", async () => {
    const mcp = stdio("crash-server.mjs", { name: "once", reconnect: false });
    await mcp.connect();
    await caught(mcp.callTool("crash", { delayMs: 10 }));
    const error = await caught(mcp.callTool("pid"));
    expect(error.code).toBe("mcp-not-connected");
    expect(error.message).toBe(
      'tools/call: MCP server "once" is not connected (MCP server "once" closed the connection); call connect() to try again',
    );
  });
});

describe("a tool call that never answers", () => {
  it("times out per call, sends notifications/cancelled, and the connection keeps working", async () => {
    const mcp = stdio("crash-server.mjs", { name: "hangs" });
    await mcp.connect();
    const error = await caught(mcp.callTool("hang", {}, { timeoutMs: 200 }));
    expect(error.code).toBe("mcp-timeout");
    expect(error.message).toBe(
      'MCP server "hangs" did not answer tools/call within 200 ms (notifications/cancelled sent)',
    );
    // The server saw the cancellation: its handler's signal was aborted. (Up to 10 s: on a loaded
    // machine the server may read the notification well after the timeout fired.)
    await vi.waitFor(async () => expect(text(await mcp.callTool("cancellations"))).toBe("1"), {
      timeout: 10_000,
    });
  });

  it("uses the server's timeoutMs when the call gives none", async () => {
    const mcp = stdio("crash-server.mjs", { name: "slow", timeoutMs: 150 });
    await mcp.connect();
    const error = await caught(mcp.callTool("hang"));
    expect(error.message).toContain("within 150 ms");
  });

  it("cancels on an aborted signal, also through a proxy tool's context", async () => {
    const mcp = stdio("crash-server.mjs", { name: "aborts" });
    await mcp.connect();
    const tools = await mcp.listTools({ prefix: "srv" });
    const hang = tools.find((tool) => tool.name === "srv_hang");
    const controller = new AbortController();
    const pending = caught(hang?.execute({}, { signal: controller.signal }) ?? Promise.resolve());
    setTimeout(() => controller.abort(), 50);
    const error = await pending;
    expect(error.code).toBe("aborted");
    expect(error.message).toBe(
      'tools/call to MCP server "aborts" was aborted (notifications/cancelled sent)',
    );
    await vi.waitFor(async () => expect(text(await mcp.callTool("cancellations"))).toBe("1"));
  });
});

describe("a server that writes garbage to stdout", () => {
  it("ignores lines that are not JSON-RPC and keeps working", async () => {
    const mcp = stdio("garbage-server.mjs");
    await mcp.connect();
    expect(await mcp.callTool("noisy")).toEqual({
      content: [{ type: "text", text: "still fine" }],
      isError: false,
    });
    expect(await mcp.callTool("noisy")).toEqual({
      content: [{ type: "text", text: "still fine" }],
      isError: false,
    });
    const transport = (mcp as unknown as { session: { transport: { garbageLines: number } } }).session
      .transport;
    expect(transport.garbageLines).toBe(7);
  });
});

describe("a server that fails to start", () => {
  it("rejects connect() naming the server, the command and the tail of stderr, without the secret", async () => {
    const secret = "sk-live-1234567890abcdef";
    const mcp = stdio("fail-start-server.mjs", { name: "database", env: { SECRET_TOKEN: secret } });
    const error = await caught(mcp.connect());
    expect(error.code).toBe("mcp-connect-failed");
    expect(error.message).toContain(
      `MCP server "database" failed to start (command: ${process.execPath} ${testServer("fail-start-server.mjs")}): it exited with code 3 before finishing the handshake`,
    );
    expect(error.message).toContain("fatal: database unreachable at db.internal:5432");
    expect(error.message).toContain("using token [redacted]");
    expect(error.message).toContain("boot step 30");
    // Only the tail: the first lines of stderr are gone.
    expect(error.message).not.toContain("boot step 1\n");
    expect(error.message).not.toContain(secret);
    expect(String((error.cause as Error | undefined)?.message ?? "")).not.toContain(secret);
    expect(mcp.connected).toBe(false);
  });

  it("names a command that does not exist", async () => {
    const mcp = track(new MCP({ transport: "stdio", command: "junction-no-such-command", name: "ghost" }));
    const error = await caught(mcp.connect());
    expect(error.code).toBe("mcp-connect-failed");
    expect(error.message).toMatch(
      /^MCP server "ghost" failed to start \(command: junction-no-such-command\): could not run it: spawn junction-no-such-command ENOENT/,
    );
  });

  it("bounds the whole handshake, probe and fallback, with one connectTimeoutMs", async () => {
    const mcp = track(
      new MCP({
        transport: "stdio",
        command: process.execPath,
        args: ["-e", "setInterval(() => {}, 1000)"],
        name: "mute",
        connectTimeoutMs: 3000,
      }),
    );
    const started = performance.now();
    const error = await caught(mcp.connect());
    const elapsed = performance.now() - started;
    expect(error.code).toBe("mcp-connect-failed");
    expect(error.message).toContain("no answer to initialize within 3000 ms");
    expect(error.message).not.toContain("stdout");
    // The deadline, then the close of a process that ignores stdin's end (300 ms grace, SIGTERM).
    // Before, the probe and the fallback each had the whole budget: over 6000 ms. The bound sits
    // between the two with seconds to spare either side, for a busy machine.
    expect(elapsed).toBeGreaterThanOrEqual(2990);
    expect(elapsed).toBeLessThan(5000);
  });

  it("says when the server wrote lines that are not JSON-RPC to stdout, quoting them", async () => {
    const mcp = track(
      new MCP({
        transport: "stdio",
        command: process.execPath,
        args: [
          "-e",
          'console.log("Weather server listening on stdio"); console.log({ port: 3000 }); setInterval(() => {}, 1000)',
        ],
        name: "chatty",
        connectTimeoutMs: 600,
      }),
    );
    const error = await caught(mcp.connect());
    expect(error.message).toContain("no answer to initialize within 600 ms");
    expect(error.message).toContain(
      "it wrote 2 lines that are not JSON-RPC to stdout (stdout carries the protocol: a server must log to stderr):\n  Weather server listening on stdio\n  { port: 3000 }",
    );
  });
});

describe("close()", () => {
  it("leaves no process of the server alive, grandchildren included (even one that ignores SIGTERM)", async () => {
    const mcp = stdio("grandchild-server.mjs");
    await mcp.connect();
    const pids = JSON.parse(text(await mcp.callTool("pids"))) as { server: number; grandchild: number };
    expect(processAlive(pids.server)).toBe(true);
    expect(processAlive(pids.grandchild)).toBe(true);
    await mcp.close();
    expect(processAlive(pids.server)).toBe(false);
    expect(processAlive(pids.grandchild)).toBe(false);
    expect(mcp.connected).toBe(false);
    const error = await caught(mcp.callTool("pids"));
    expect(error.code).toBe("mcp-not-connected");
  });
});

describe("a server that dies leaving a grandchild holding its pipes", () => {
  it("is noticed, its leftover process group is ended, and the restarted server answers", async () => {
    const mcp = stdio("grandchild-server.mjs", { name: "wrapper", reconnect: { initialDelayMs: 20 } });
    await mcp.connect();
    const before = JSON.parse(text(await mcp.callTool("pids"))) as { server: number; grandchild: number };
    const error = await caught(mcp.callTool("die"));
    expect(error.code).toBe("mcp-connection-closed");
    const after = JSON.parse(text(await mcp.callTool("pids"))) as { server: number; grandchild: number };
    expect(after.server).not.toBe(before.server);
    expect(processAlive(before.server)).toBe(false);
    await vi.waitFor(() => expect(processAlive(before.grandchild)).toBe(false), { timeout: 8000 });
    expect(processAlive(after.grandchild)).toBe(true);
  });
});

describe("the server's environment", () => {
  it("inherits only the safe defaults plus the config's env", async () => {
    process.env.JUNCTION_PARENT_ONLY = "must-not-leak";
    try {
      const mcp = stdio("env-server.mjs", { env: { SERVER_SETTING: "on" } });
      await mcp.connect();
      const names = JSON.parse(text(await mcp.callTool("env"))) as string[];
      expect(names).toContain("SERVER_SETTING");
      expect(names).toContain("PATH");
      expect(names).not.toContain("JUNCTION_PARENT_ONLY");
      const allowed = new Set([
        "HOME",
        "LOGNAME",
        "PATH",
        "SHELL",
        "TERM",
        "USER",
        "SERVER_SETTING",
        ...NETWORK_ENVIRONMENT_VARIABLES,
      ]);
      // Node may add a few of its own at startup; nothing else from the parent.
      expect(names.filter((name) => !allowed.has(name) && !name.startsWith("NODE_") && name !== "_")).toEqual(
        [],
      );
    } finally {
      delete process.env.JUNCTION_PARENT_ONLY;
    }
  });

  it("passes certificate and proxy variables (an npx server behind a TLS-inspecting proxy needs them), never API keys", async () => {
    const parent = {
      NODE_EXTRA_CA_CERTS: "/etc/ssl/corporate-ca.pem",
      SSL_CERT_FILE: "/etc/ssl/cert.pem",
      HTTPS_PROXY: "http://proxy.internal:3128",
      no_proxy: "localhost,127.0.0.1",
      npm_config_cafile: "/etc/ssl/corporate-ca.pem",
      JUNCTION_TEST_API_KEY: "sk-must-not-leak",
    };
    Object.assign(process.env, parent);
    try {
      const mcp = stdio("env-server.mjs");
      await mcp.connect();
      const names = JSON.parse(text(await mcp.callTool("env"))) as string[];
      for (const name of [
        "NODE_EXTRA_CA_CERTS",
        "SSL_CERT_FILE",
        "HTTPS_PROXY",
        "no_proxy",
        "npm_config_cafile",
      ])
        expect(names).toContain(name);
      expect(names).not.toContain("JUNCTION_TEST_API_KEY");
    } finally {
      for (const name of Object.keys(parent)) delete process.env[name];
    }
  });

  it("shows what a server that fails on them printed to stderr, with a proxy's password redacted", async () => {
    process.env.HTTPS_PROXY = "http://alice:proxy-pass-42@proxy.internal:3128";
    try {
      const mcp = stdio("env-server.mjs", {
        command: process.execPath,
        args: [
          "-e",
          'console.error("npm error request to https://registry.npmjs.org/x failed via " + process.env.HTTPS_PROXY + ", reason: self-signed certificate in certificate chain"); process.exit(1)',
        ],
        name: "npx-behind-proxy",
        reconnect: false,
      });
      const error = await caught(mcp.connect());
      expect(error.message).toContain("it exited with code 1 before finishing the handshake");
      expect(error.message).toContain(
        "stderr (last lines):\nnpm error request to https://registry.npmjs.org/x failed via [redacted], reason: self-signed certificate in certificate chain",
      );
      expect(error.message).not.toContain("proxy-pass-42");
    } finally {
      delete process.env.HTTPS_PROXY;
    }
  });
});
