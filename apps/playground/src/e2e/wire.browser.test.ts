import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeVendorEndpoint } from "../../test/fake-vendor-endpoint.js";
import { type LaunchedChromium, launchChromium } from "../../test/launch-chromium.js";
import { startScriptedChatCompletions, toolResultsIn } from "../../test/scripted-chat-completions.js";
import { runChatTurn, startTestPlayground, type TestPlayground } from "../../test/test-playground.js";
import { resolvePackageBin } from "../server/default-servers.js";
import type { ServerStatus, TrafficLog } from "../shared/api-types.js";

// What went over the wire (issue 13): the traffic view, stderr, the health indicator, the
// resource-template form with completions, progress on a running tool card, and a repeated
// warning shown once per turn. Real server-everything over stdio, real Chromium.
const artifacts = fileURLToPath(new URL("../../test-artifacts/wire/", import.meta.url));
const everything = resolvePackageBin("@modelcontextprotocol/server-everything");
const wireServer = fileURLToPath(new URL("../__fixtures__/wire-server.mjs", import.meta.url));
const secret = "wire-secret-7f3a9c2e";
const literalKey = "literal-key-5b1d8e";
/** The config expands the variable; the playground learns the value as a secret to mask. */
const fromEnvironment = (name: string) => `\${${name}}`;

let test: TestPlayground;
let page: Page;
let browser: LaunchedChromium | undefined;
let serverId: string;
let endpoint: FakeVendorEndpoint;
let httpFixture: ChildProcess | undefined;
const pageErrors: string[] = [];

const shot = (name: string) => page.screenshot({ path: join(artifacts, name), fullPage: true });

beforeAll(async () => {
  rmSync(artifacts, { recursive: true, force: true });
  mkdirSync(artifacts, { recursive: true });
  test = await startTestPlayground({
    seedDefaults: false,
    environment: { WIRE_SECRET: secret },
    allowEnv: ["WIRE_SECRET"],
  });
  const added = await test.api<ServerStatus>("POST", "/api/servers", {
    name: "everything",
    config: {
      command: process.execPath,
      args: [everything, "stdio"],
      env: { API_TOKEN: fromEnvironment("WIRE_SECRET") },
    },
  });
  expect(added.body.status).toBe("connected");
  serverId = added.body.id;
  browser = await launchChromium({ viewport: { width: 1280, height: 900 }, pageErrors });
  page = browser.page;
});

afterAll(async () => {
  await browser?.close();
  await test?.close();
  await endpoint?.close();
  httpFixture?.kill("SIGKILL");
});

describe("what went over the wire, in a real browser", () => {
  it("shows the server healthy with its last ping's round trip", async () => {
    await page.goto(test.url);
    await expect.poll(() => page.getByTestId("server-status-everything").textContent()).toBe("connected");
    await expect
      .poll(() => page.getByTestId("health-text").textContent())
      .toMatch(/^healthy · ping \d+(\.\d)? ms$/);
    const before = await test.api("GET", "/api/servers");
    expect(before.body[0].health).toMatchObject({ state: "ok" });
    expect(before.body[0].health.latencyMs).toBeGreaterThanOrEqual(0);
    await page.getByTestId("ping").click();
    await page.getByTestId("tool-list").waitFor();
    await shot("01-health-ping.png");
  });

  it("shows a tool call's request and response with timing, the secret masked", async () => {
    await page.getByTestId("tool-get-env").click();
    await page.getByTestId("run-tool").click();
    await page.getByTestId("tool-output").getByTestId("content-text").first().waitFor();
    // The page never gets the secret: the result and the traffic are masked on the server.
    expect(await page.getByTestId("tool-output").textContent()).not.toContain(secret);

    const log = (await test.api<TrafficLog>("GET", `/api/servers/${serverId}/traffic`)).body;
    const request = log.entries.find((entry) => entry.direction === "out" && entry.method === "tools/call");
    const response = log.entries.find(
      (entry) => entry.direction === "in" && entry.kind === "response" && entry.id === request?.id,
    );
    expect(request).toMatchObject({ kind: "request", truncated: false });
    expect(JSON.parse(request!.text)).toEqual({
      jsonrpc: "2.0",
      id: request!.id,
      method: "tools/call",
      // The playground traces its MCP requests: the call carries its trace context to the server.
      params: {
        name: "get-env",
        arguments: {},
        _meta: { traceparent: expect.stringMatching(/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/) },
      },
    });
    expect(response).toMatchObject({ method: "tools/call", kind: "response" });
    expect(response!.durationMs).toBeGreaterThanOrEqual(0);
    expect(response!.text).toContain('API_TOKEN\\": \\"••••••\\"');
    expect(JSON.stringify(log)).not.toContain(secret);
    // The handshake is there too, from the first message: the client's server/discover probe
    // (MCP 2026-07-28), which this 2025 server refuses, then initialize.
    expect(log.entries[0]).toMatchObject({ direction: "out", kind: "request", method: "server/discover" });
    expect(log.entries.find((entry) => entry.method === "initialize")).toMatchObject({
      direction: "out",
      kind: "request",
    });

    await page.getByTestId("traffic").locator("summary").first().click();
    await page.getByTestId("traffic-filter").fill("tools/call");
    const rows = page.locator('[data-testid="traffic-row"][data-method="tools/call"]');
    await expect.poll(() => rows.count()).toBe(2);
    await expect
      .poll(() => rows.nth(1).getByTestId("traffic-duration").textContent())
      .toBe(`${response!.durationMs} ms`);
    await rows.nth(0).locator("summary").click();
    await rows.nth(1).locator("summary").click();
    const shownResponse = (await rows.nth(1).getByTestId("traffic-json").textContent()) ?? "";
    expect(shownResponse).toContain("API_TOKEN");
    expect(shownResponse).toContain("••••••");
    expect(shownResponse).not.toContain(secret);
    await rows.nth(1).scrollIntoViewIfNeeded();
    await shot("02-traffic-view.png");
  });

  it("shows what a running server wrote to stderr", async () => {
    const stderr = await test.api("GET", `/api/servers/${serverId}/stderr`);
    expect(stderr.body.text).toContain("Starting default (STDIO) server...");
    await page.getByTestId("stderr").locator("summary").click();
    await expect
      .poll(() => page.getByTestId("stderr-output").textContent())
      .toContain("Starting default (STDIO) server...");
    await page.getByTestId("stderr").scrollIntoViewIfNeeded();
    await shot("03-stderr.png");
  });

  it("fills a resource template's variable from the server's completions and reads it", async () => {
    await page.getByTestId("tab-resources").click();
    await page.getByTestId("template-Dynamic Text Resource").click();
    const field = page.getByTestId("template-field-resourceId");
    await field.fill("1");
    const suggestions = page
      .getByTestId("template-suggestions-resourceId")
      .getByTestId("template-suggestion");
    await expect.poll(() => suggestions.count()).toBeGreaterThan(0);
    const offered = await suggestions.allTextContents();
    const completion = await test.api("POST", `/api/servers/${serverId}/complete`, {
      ref: { type: "ref/resource", uri: "demo://resource/dynamic/text/{resourceId}" },
      argument: { name: "resourceId", value: "1" },
    });
    expect(offered).toEqual(completion.body.values.slice(0, 12));
    expect(offered.every((value) => value.startsWith("1"))).toBe(true);
    // Fold the traffic and stderr away, so the form is in view.
    await page.getByTestId("traffic").locator("summary").first().click();
    await page.getByTestId("stderr").locator("summary").click();
    await page.getByTestId("template-form").scrollIntoViewIfNeeded();
    await shot("04-template-completion.png");
    await suggestions.first().click();
    await expect
      .poll(() => page.getByTestId("template-uri").textContent())
      .toBe(`demo://resource/dynamic/text/${offered[0]}`);
    await page.getByTestId("template-read").click();
    await expect
      .poll(async () => (await page.getByTestId("resource-output").textContent()) ?? "")
      .toContain(`Resource ${offered[0]}`);
  });

  it("shows a long-running tool's progress on its card in chat", async () => {
    await page.getByTestId("nav-chat").click();
    await page.getByTestId("composer").fill("trigger the long running operation");
    await page.getByTestId("send").click();
    const card = page.getByTestId("tool-card").last();
    await expect
      .poll(() => card.getByTestId("tool-card-name").textContent())
      .toBe("everything_trigger-long-running-operation");
    const progress = card.getByTestId("tool-card-progress");
    await expect
      .poll(async () => (await progress.textContent()) ?? "", { timeout: 15_000 })
      .toMatch(/progress [1-4] \/ 5/);
    expect(await card.getByTestId("tool-card-status").textContent()).toBe("running…");
    expect(await card.getByTestId("tool-card-progress-bar").getAttribute("max")).toBe("5");
    await shot("05-chat-tool-progress.png");
    await expect
      .poll(() => card.getByTestId("tool-card-status").textContent(), { timeout: 20_000 })
      .toMatch(/^done in \d+ ms$/);
    expect(await card.getByTestId("tool-card-progress").count()).toBe(0);
  }, 60_000);

  it("shows a warning the provider repeats on every step once per turn", async () => {
    endpoint = await startScriptedChatCompletions((request) =>
      toolResultsIn(request) === 0
        ? { toolCalls: [{ id: "call_sum", name: "everything_get-sum", arguments: { a: 2, b: 3 } }] }
        : { text: "The sum is 5." },
    );
    await test.api("POST", "/api/settings", {
      openaiCompatibleBaseURL: `${endpoint.url}/v1`,
      openaiCompatibleModel: "fake-model",
    });
    // The stream itself carries the warning at each of the two steps…
    const created = await test.api("POST", "/api/conversations", { provider: "openai-compatible" });
    const events = await runChatTurn(test, created.body.id, { text: "add 2 and 3" });
    const warnings = events.filter((event) => event.type === "warning");
    expect(warnings.map((event) => event.code)).toEqual(["usage-missing", "usage-missing"]);
    // …the stored transcript, folded by the shared function, has it once…
    const stored = await test.api("GET", `/api/conversations/${created.body.id}`);
    expect(stored.body.transcript.filter((item: { kind: string }) => item.kind === "notice")).toEqual([
      { kind: "notice", level: "warning", text: warnings[0].message, code: "usage-missing" },
    ]);
    // …and so does the page, live.
    await page.reload();
    await page.getByTestId("nav-chat").click();
    await page.getByTestId("new-chat").click();
    await page.getByTestId("provider-select").selectOption("openai-compatible");
    await page.getByTestId("composer").fill("add 2 and 3");
    await page.getByTestId("send").click();
    await expect
      .poll(() => page.getByTestId("message-assistant").last().locator(".text").textContent())
      .toBe("The sum is 5.");
    await expect.poll(() => page.getByTestId("send").isDisabled()).toBe(false);
    const notices = await page.getByTestId("transcript").getByTestId("notice").allTextContents();
    expect(notices).toEqual([warnings[0].message]);
    await shot("06-warning-once-per-turn.png");
    expect(pageErrors).toEqual([]);
  });

  it("masks header secrets a server echoes, and says when a server has no ping", async () => {
    httpFixture = spawn(process.execPath, [wireServer, "--http"], { stdio: ["ignore", "pipe", "inherit"] });
    const port = await new Promise<number>((resolve, reject) => {
      httpFixture!.stdout!.on("data", (chunk: Buffer) => {
        const match = /listening on (\d+)/.exec(chunk.toString());
        if (match) resolve(Number(match[1]));
      });
      httpFixture!.once("exit", (code) => reject(new Error(`the wire fixture exited with ${code}`)));
    });
    const added = await test.api<ServerStatus>("POST", "/api/servers", {
      name: "wire-http",
      config: {
        type: "http",
        url: `http://127.0.0.1:${port}/mcp`,
        headers: { Authorization: `Bearer ${fromEnvironment("WIRE_SECRET")}`, "X-Api-Key": literalKey },
      },
    });
    expect(added.body.status).toBe("connected");
    const ping = await test.api("POST", `/api/servers/${added.body.id}/ping`, {});
    expect(ping.body).toMatchObject({
      state: "unsupported",
      error: "This server does not answer ping (method not found).",
    });

    await page.getByTestId("nav-servers").click();
    await page.getByTestId("server-wire-http").click();
    await expect
      .poll(() => page.getByTestId("health-text").textContent())
      .toBe("connected · ping not available on this server");
    await page.getByTestId("tool-whoami").click();
    await page.getByTestId("run-tool").click();
    await expect
      .poll(async () => (await page.getByTestId("tool-output").textContent()) ?? "")
      .toContain('You are {"authorization":"••••••","x-api-key":"••••••"}');

    const log = (await test.api<TrafficLog>("GET", `/api/servers/${added.body.id}/traffic`)).body;
    expect(JSON.stringify(log)).not.toContain(secret);
    expect(JSON.stringify(log)).not.toContain(literalKey);
    const pingEntries = log.entries.filter((entry) => entry.method === "ping");
    expect(pingEntries.map(({ direction, kind }) => ({ direction, kind }))).toContainEqual({
      direction: "in",
      kind: "error",
    });

    await page.getByTestId("traffic").locator("summary").first().click();
    const rows = page.locator('[data-testid="traffic-row"]');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(6);
    const call = page.locator('[data-testid="traffic-row"][data-method="tools/call"]');
    await expect.poll(() => call.count()).toBe(2);
    await call.nth(1).locator("summary").click();
    const shown = (await call.nth(1).getByTestId("traffic-json").textContent()) ?? "";
    expect(shown).toContain('\\"authorization\\":\\"••••••\\"');
    expect(shown).toContain('\\"x-api-key\\":\\"••••••\\"');
    await page.getByTestId("traffic").scrollIntoViewIfNeeded();
    await shot("07-traffic-header-secret-masked.png");
  });

  it("shows what a stdio server writes to stderr while it runs", async () => {
    const added = await test.api<ServerStatus>("POST", "/api/servers", {
      name: "wire-stdio",
      config: { command: process.execPath, args: [wireServer] },
    });
    expect(added.body.status).toBe("connected");
    await page.getByTestId("server-wire-stdio").click();
    await page.getByTestId("stderr").locator("summary").click();
    await expect
      .poll(() => page.getByTestId("stderr-output").textContent())
      .toBe("wire fixture ready on stdio\n");
    await page.getByTestId("tool-say-on-stderr").click();
    await page.getByTestId("field-line").fill("disk almost full: 97% used");
    await page.getByTestId("run-tool").click();
    // The open view picks the new line up by itself.
    await expect
      .poll(() => page.getByTestId("stderr-output").textContent())
      .toBe("wire fixture ready on stdio\ndisk almost full: 97% used\n");
    await shot("08-stderr-while-running.png");
    expect(pageErrors).toEqual([]);
  });

  it("shows a server that stopped as reconnecting, then failed once its restarts give up", async () => {
    const marker = join(test.directory, "wire-once.marker");
    const added = await test.api<ServerStatus>("POST", "/api/servers", {
      name: "wire-once",
      config: { command: process.execPath, args: [wireServer, "--once", marker] },
    });
    expect(added.body.status).toBe("connected");
    await page.goto(test.url);
    await page.getByTestId("server-wire-once").click();
    await expect
      .poll(() => page.getByTestId("health-text").textContent())
      .toBe("connected · ping not available on this server");
    const crashed = await test.api("POST", `/api/servers/${added.body.id}/tools/call`, { name: "crash" });
    expect(crashed.status).toBeGreaterThanOrEqual(400);
    await page.getByTestId("ping").click();
    await expect
      .poll(() => page.getByTestId("health-text").textContent())
      .toBe("reconnecting · the server stopped and is being restarted");
    // The health change was announced: the list follows without a reload.
    await expect.poll(() => page.getByTestId("server-status-wire-once").textContent()).toBe("reconnecting");
    await shot("09-health-reconnecting.png");
    // Five restarts (0.5 + 1 + 2 + 4 + 8 s of backoff, plus five process starts that take seconds
    // each on a loaded 2-core CI machine) fail, each saying why on stderr.
    await expect
      .poll(
        async () => {
          // Once the server is down the button is disabled (Reconnect is the way back).
          if (await page.getByTestId("ping").isEnabled()) await page.getByTestId("ping").click();
          return (await page.getByTestId("health-text").textContent()) ?? "";
        },
        { timeout: 60_000, interval: 1000 },
      )
      .toBe("ping failed");
    // The list and the detail say the server is down, and why.
    await expect.poll(() => page.getByTestId("server-status-wire-once").textContent()).toBe("error");
    expect(await page.getByTestId("server-error").textContent()).toMatch(
      /could not be restarted after 5 attempts.*exited with code 3 before finishing the handshake/s,
    );
    await page.getByTestId("stderr").locator("summary").click();
    // Five refused starts per round of restarts. A ping the poll above clicked just as the round
    // gave up (before the button was disabled, on a loaded machine) starts one more round, since a
    // request to a server that gave up tries again: so whole rounds of five, at least one.
    await expect
      .poll(async () => {
        const text = (await page.getByTestId("stderr-output").textContent()) ?? "";
        const refused = text.split("\n").filter((line) => line === "started before: refusing to start again");
        return {
          start: text.startsWith("wire fixture ready on stdio\ncrashing on purpose\n"),
          wholeRounds: refused.length > 0 && refused.length % 5 === 0,
          onlyThose: text.split("\n").filter(Boolean).length === refused.length + 2,
        };
      })
      .toEqual({ start: true, wholeRounds: true, onlyThose: true });
    await shot("10-health-failed.png");
  }, 120_000);
});
