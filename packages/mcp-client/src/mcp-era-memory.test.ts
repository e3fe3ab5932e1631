import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { processAlive, resultText, testServer } from "../test/test-support.js";
import { MCP } from "./mcp.js";
import type { MCPWireMessage } from "./message-tap.js";
import { forgetRememberedEras } from "./protocol-memory.js";

beforeEach(forgetRememberedEras);

/** The methods of the requests and notifications the tap saw, as "out initialize" etc. */
function methods(messages: MCPWireMessage[]): string[] {
  return messages.flatMap(({ direction, message }) =>
    "method" in message ? [`${direction} ${message.method}`] : [],
  );
}

async function waitFor(check: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("a reconnect remembers the revision the connection negotiated", () => {
  let mcp: MCP | undefined;
  afterEach(async () => {
    await mcp?.close();
    mcp = undefined;
  });

  it("reconnects to a legacy server with initialize alone (no second server/discover probe)", async () => {
    const messages: MCPWireMessage[] = [];
    mcp = new MCP({
      transport: "stdio",
      command: process.execPath,
      args: [testServer("crash-server.mjs")],
      reconnect: { initialDelayMs: 50, maxAttempts: 3 },
      onMessage: (message) => messages.push(message),
    });
    await mcp.connect();
    expect(mcp.protocolVersion).toBe("2025-11-25");
    // The first connect probes, is refused, and falls back to the 2025 handshake.
    expect(methods(messages).slice(0, 2)).toEqual(["out server/discover", "out initialize"]);
    const before = messages.length;

    await mcp.callTool("crash", { delayMs: 20 }).catch(() => undefined);
    const result = await mcp.callTool("pid");
    expect(result.isError).toBe(false);

    const afterCrash = methods(messages.slice(before));
    // The restarted server got initialize straight away, and the call went to it.
    expect(afterCrash).not.toContain("out server/discover");
    const restart = afterCrash.indexOf("out initialize");
    expect(restart).toBeGreaterThan(-1);
    expect(afterCrash.slice(restart)).toEqual([
      "out initialize",
      "out notifications/initialized",
      expect.stringMatching(/^out tools\/(list|call)$/),
      ...afterCrash.slice(restart + 3),
    ]);
    expect(afterCrash.slice(restart)).toContain("out tools/call");
    expect(methods(messages).filter((method) => method === "out server/discover")).toHaveLength(1);
    expect(mcp.protocolVersion).toBe("2025-11-25");
  });

  it("still negotiates 2026-07-28 with a modern server after it was killed and restarted", async () => {
    const messages: MCPWireMessage[] = [];
    mcp = new MCP({
      transport: "stdio",
      command: process.execPath,
      args: [testServer("modern-server.mjs"), "stdio"],
      reconnect: { initialDelayMs: 50, maxAttempts: 3 },
      onMessage: (message) => messages.push(message),
    });
    await mcp.connect();
    expect(mcp.protocolVersion).toBe("2026-07-28");
    const first = resultText(await mcp.callTool("echo", { message: "one" }));
    const pid = Number(first.split(":")[0]);
    expect(first).toBe(`${pid}: one`);

    process.kill(pid, "SIGKILL");
    await waitFor(() => !processAlive(pid));
    // The restart opens with the 2026 discovery again (a modern server is never spoken to in 2025).
    await waitFor(() => methods(messages).filter((method) => method === "out server/discover").length === 2);
    const second = resultText(await mcp.callTool("echo", { message: "two" }));
    const newPid = Number(second.split(":")[0]);
    expect(newPid).not.toBe(pid);
    expect(second).toBe(`${newPid}: two`);
    expect(mcp.protocolVersion).toBe("2026-07-28");
    // No 2025 handshake was ever tried on this server, before or after the restart.
    expect(methods(messages)).not.toContain("out initialize");
  });
});

describe("a remembered era that no longer works", () => {
  let mcp: MCP | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await mcp?.close();
    mcp = undefined;
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it("is forgotten: a legacy server upgraded in place is probed afresh and reached on 2026-07-28", async () => {
    dir = await mkdtemp(join(tmpdir(), "junction-era-"));
    const eraFile = join(dir, "era");
    await writeFile(eraFile, "legacy");
    const messages: MCPWireMessage[] = [];
    mcp = new MCP({
      transport: "stdio",
      command: process.execPath,
      args: [testServer("era-switch-server.mjs")],
      env: { ERA_FILE: eraFile },
      reconnect: { initialDelayMs: 50, maxAttempts: 4 },
      onMessage: (message) => messages.push(message),
    });
    await mcp.connect();
    expect(mcp.protocolVersion).toBe("2025-11-25");

    // The next start of the same command runs a 2026-07-28-only server.
    await writeFile(eraFile, "modern");
    await mcp.callTool("crash", { delayMs: 20 }).catch(() => undefined);
    const result = await mcp.callTool("echo", { message: "upgraded" }, { timeoutMs: 10_000 });
    expect(resultText(result)).toMatch(/^\d+: upgraded$/);
    expect(mcp.protocolVersion).toBe("2026-07-28");
    const seen = methods(messages);
    const firstAfterCrash = seen.indexOf("out initialize", seen.indexOf("out tools/call"));
    // The first restart tried the remembered 2025 handshake (refused), the next one probed.
    expect(firstAfterCrash).toBeGreaterThan(-1);
    expect(seen.slice(firstAfterCrash)).toContain("out server/discover");
  });
});

describe("the server/discover probe is paid at most once per server", () => {
  const open: MCP[] = [];
  let dir: string | undefined;
  afterEach(async () => {
    await Promise.all(open.splice(0).map((mcp) => mcp.close()));
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });
  function connectTo(config: Partial<ConstructorParameters<typeof MCP>[0]>, messages: MCPWireMessage[]) {
    const mcp = new MCP({
      transport: "stdio",
      command: process.execPath,
      args: [testServer("crash-server.mjs")],
      reconnect: false,
      onMessage: (message) => messages.push(message),
      ...config,
    } as ConstructorParameters<typeof MCP>[0]);
    open.push(mcp);
    return mcp;
  }

  it("in this process: another MCP (or connectAll) for the same server sends initialize alone", async () => {
    const first: MCPWireMessage[] = [];
    await connectTo({}, first).connect();
    expect(methods(first).slice(0, 2)).toEqual(["out server/discover", "out initialize"]);
    const second: MCPWireMessage[] = [];
    const again = connectTo({}, second);
    await again.connect();
    expect(again.protocolVersion).toBe("2025-11-25");
    expect(methods(second).slice(0, 2)).toEqual(["out initialize", "out notifications/initialized"]);
    // A different server (here: another environment) is probed.
    const other: MCPWireMessage[] = [];
    await connectTo({ env: { SOMETHING: "else" } }, other).connect();
    expect(methods(other)[0]).toBe("out server/discover");
  });

  it("across restarts: protocolVersionHint from an earlier connect skips the probe", async () => {
    const messages: MCPWireMessage[] = [];
    const mcp = connectTo({ protocolVersionHint: "2025-11-25" }, messages);
    await mcp.connect();
    expect(mcp.protocolVersion).toBe("2025-11-25");
    expect(methods(messages)).not.toContain("out server/discover");
    expect(methods(messages).slice(0, 2)).toEqual(["out initialize", "out notifications/initialized"]);
  });

  it("a hint the server refuses is dropped and the server probed at once, in the same connect()", async () => {
    dir = await mkdtemp(join(tmpdir(), "junction-hint-"));
    const eraFile = join(dir, "era");
    await writeFile(eraFile, "modern");
    const messages: MCPWireMessage[] = [];
    const mcp = connectTo(
      {
        args: [testServer("era-switch-server.mjs")],
        env: { ERA_FILE: eraFile },
        protocolVersionHint: "2025-11-25",
      },
      messages,
    );
    await mcp.connect();
    expect(mcp.protocolVersion).toBe("2026-07-28");
    const seen = methods(messages);
    expect(seen[0]).toBe("out initialize");
    expect(seen).toContain("out server/discover");
    expect(seen.indexOf("out server/discover")).toBeGreaterThan(0);
  });
});
