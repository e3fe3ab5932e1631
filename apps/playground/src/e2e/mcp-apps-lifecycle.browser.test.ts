import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { FrameLocator, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LaunchedChromium, launchChromium } from "../../test/launch-chromium.js";
import { openPlayground, type Playground } from "../server/app.js";
import { startHttpServer } from "../server/http-server.js";
import { createToken } from "../server/security.js";

// The MCP Apps lifecycle (2026-01-26) with a view built on the published ext-apps 2.x `App`
// class: teardown before the host removes a view, host-context-changed, the view's log lines.
const sdkServer = fileURLToPath(new URL("../__fixtures__/mcp-apps-sdk-server.mjs", import.meta.url));

let playground: Playground;
let http: Awaited<ReturnType<typeof startHttpServer>>;
let directory: string;
let token: string;
let recordFile: string;
let serverId: string;
let page: Page;
let browser: LaunchedChromium | undefined;
const pageErrors: string[] = [];
/** The origin the inspector's view had (the chat's view of the same app has it too). */
let inspectorOrigin = "";

const frameSelector = '[data-testid="tool-output"] [data-testid="mcp-app-frame"]';
const report = async (frame: FrameLocator): Promise<Record<string, any>> =>
  JSON.parse((await frame.locator("#report").textContent()) ?? "{}");
/** The events the app's `record` tool (app-only) wrote, one a line. */
const recorded = () => readFileSync(recordFile, "utf8").split("\n").filter(Boolean);
const api = (method: string, path: string, body?: unknown) =>
  fetch(`http://127.0.0.1:${http.port}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then(async (response) => ({ status: response.status, body: await response.json() }));
const logLines = (app: Locator) => app.getByTestId("mcp-app-log").allTextContents();

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), "junction-playground-app-lifecycle-"));
  recordFile = join(directory, "recorded.txt");
  writeFileSync(recordFile, "");
  playground = await openPlayground({ directory, environment: {}, seedDefaults: false });
  token = createToken();
  http = await startHttpServer(playground, { token, port: 0 });
  const added = await api("POST", "/api/servers", {
    name: "sdk",
    config: { command: process.execPath, args: [sdkServer, "--record-file", recordFile] },
  });
  expect(added.body.status).toBe("connected");
  serverId = added.body.id;
  // Third-party storage as Chrome allows it by default: the view's origin is cross-site to the page.
  browser = await launchChromium({
    viewport: { width: 1280, height: 900 },
    pageErrors,
    thirdPartyStorage: true,
  });
  ({ page } = browser);
});

afterAll(async () => {
  await browser?.close();
  await http?.close();
  await playground?.close();
  if (directory) rmSync(directory, { recursive: true, force: true });
});

async function runLifecycle(note: string): Promise<FrameLocator> {
  await page.getByTestId("field-note").fill(note);
  await page.getByTestId("run-tool").click();
  const frame = page.frameLocator(frameSelector).frameLocator("iframe");
  await expect.poll(async () => (await report(frame)).result).toBe(`lifecycle: ${note}`);
  return frame;
}

describe("MCP Apps lifecycle with an ext-apps 2.x App", () => {
  it("connects the SDK's App: tool input and result arrive, the host advertises what it supports", async () => {
    await page.goto(http.url);
    await expect.poll(() => page.getByTestId("server-status-sdk").textContent()).toBe("connected");
    await page.getByTestId("server-sdk").click();
    // The app-only tools (record, count-up, release) are not tools with apps: a view calls them.
    expect((await api("GET", `/api/servers/${serverId}/apps`)).body).toEqual([
      { tool: "show-lifecycle", resourceUri: "ui://sdk/lifecycle.html" },
      { tool: "show-waiting", resourceUri: "ui://sdk/lifecycle.html" },
      { tool: "show-silent", resourceUri: "ui://sdk/silent.html" },
      { tool: "show-permissions", resourceUri: "ui://sdk/permissions.html" },
    ]);
    await page.getByTestId("tool-show-lifecycle").click();
    const frame = await runLifecycle("first");
    const found = await report(frame);
    expect(found.input).toEqual({ note: "first" });
    expect(found.host).toBe("junction-playground");
    expect(found.theme).toBe("light");
    expect(found.capabilities).toEqual({
      openLinks: {},
      serverTools: {},
      logging: {},
      sandbox: { csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] } },
    });
    expect(found.width).toBe(
      await page.locator(frameSelector).evaluate((element: HTMLElement) => element.clientWidth),
    );
    // Asked for fullscreen, the host answers with the mode the view is in: inline.
    expect(found.displayMode).toEqual({ mode: "inline" });
    // The inspector's call has no model call id; the tool is the one run.
    expect(found.toolInfo).toEqual({ id: null, name: "show-lifecycle" });
    // The host's theme reached the view, and the SDK's helpers applied it.
    expect(found.styles).toEqual({
      background: "rgb(255, 255, 255)",
      fontFamily: '"Junction Sans", system-ui, -apple-system, "Segoe UI", sans-serif',
      fonts: expect.stringContaining('@font-face { font-family: "Junction Sans"; src: local('),
    });
  });

  it("serves the view through a sandbox proxy on an origin of the app's own, where storage works", async () => {
    const frame = page.frameLocator(frameSelector).frameLocator("iframe");
    const found = await report(frame);
    const outer = page.locator(frameSelector);
    const proxy = await outer.evaluate((element: HTMLIFrameElement) => ({
      sandbox: element.getAttribute("sandbox"),
      referrerPolicy: element.getAttribute("referrerpolicy"),
      src: element.getAttribute("src"),
    }));
    // The outer frame is the proxy (allow-scripts allow-same-origin, as the spec asks), on the
    // app's origin: a .localhost name of its own on the app port, never the page's origin.
    expect(proxy.sandbox).toBe("allow-scripts allow-same-origin");
    expect(proxy.referrerPolicy).toBe("origin");
    expect(found.origin).toMatch(new RegExp(`^http://[a-z0-9]{32}\\.localhost:${http.appPort}$`));
    expect(new URL(proxy.src!).origin).toBe(found.origin);
    expect(found.origin).not.toBe(new URL(http.url).origin);
    // The view is the proxy's inner frame, sandboxed the same way, holding the raw HTML it was sent.
    const inner = await page
      .frameLocator(frameSelector)
      .locator("iframe")
      .evaluate((element: HTMLIFrameElement) => ({
        sandbox: element.getAttribute("sandbox"),
        srcdoc: element.srcdoc.includes("<h2>Lifecycle app</h2>"),
      }));
    expect(inner).toEqual({ sandbox: "allow-scripts allow-same-origin", srcdoc: true });
    // A real origin: localStorage works (the spec's reason for a proxy), and is the app's own.
    expect(found.storage).toEqual({ before: null, after: "1" });
    inspectorOrigin = found.origin;
    expect(await page.evaluate(() => localStorage.getItem("visits"))).toBeNull();
  });

  it("shows the app's notifications/message under it as the app's own text, never as markup", async () => {
    const app = page.getByTestId("tool-output").getByTestId("mcp-app");
    await page.frameLocator(frameSelector).frameLocator("iframe").locator("#log").click();
    await expect
      .poll(() => logLines(app))
      .toEqual(["App log (warning, lifecycle; the app's own words): <b>not markup</b> from the app"]);
    expect(await app.getByTestId("mcp-app-log").locator("b").count()).toBe(0);
  });

  it("sends host-context-changed when the view's width or the theme changes", async () => {
    const frame = page.frameLocator(frameSelector).frameLocator("iframe");
    const frameElement = page.locator(frameSelector);
    const before = await frameElement.evaluate((element: HTMLElement) => element.clientWidth);
    await page.setViewportSize({ width: 1000, height: 900 });
    await expect
      .poll(() => frameElement.evaluate((element: HTMLElement) => element.clientWidth))
      .not.toBe(before);
    const width = await frameElement.evaluate((element: HTMLElement) => element.clientWidth);
    await expect
      .poll(async () => (await report(frame)).contextChanges?.at(-1))
      .toEqual({ containerDimensions: { maxHeight: 640, width } });
    await page.emulateMedia({ colorScheme: "dark" });
    await expect.poll(async () => (await report(frame)).contextChanges?.at(-1)).toEqual({ theme: "dark" });
    await page.emulateMedia({ colorScheme: "light" });
    await expect.poll(async () => (await report(frame)).contextChanges?.at(-1)).toEqual({ theme: "light" });
    // Each change once, and only what changed.
    expect((await report(frame)).contextChanges).toEqual([
      { containerDimensions: { maxHeight: 640, width } },
      { theme: "dark" },
      { theme: "light" },
    ]);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("forwards the server's notifications/progress for the App's tools/call to the view, under its token", async () => {
    const frame = page.frameLocator(frameSelector).frameLocator("iframe");
    await frame.locator("#work").click();
    // All three arrive while the call still runs (it ends only when the view releases it).
    await expect
      .poll(async () => (await report(frame)).progress)
      .toEqual([
        { progress: 1, total: 3, message: "step 1" },
        { progress: 2, total: 3, message: "step 2" },
        { progress: 3, total: 3, message: "step 3" },
      ]);
    expect((await report(frame)).work).toBeUndefined();
    await frame.locator("#release").click();
    await expect.poll(async () => (await report(frame)).work).toBe("counted to 3");
  });

  it("tears the view down before the tool is run again: the app's onteardown reaches its server first", async () => {
    const since = (await api("GET", `/api/servers/${serverId}/traffic`)).body.entries.at(-1).seq;
    expect(recorded()).toEqual([]);
    await runLifecycle("second");
    expect(recorded()).toEqual(["teardown"]);
    // On the wire: the app's record call (its teardown) went out before the new run of the tool.
    const calls = (await api("GET", `/api/servers/${serverId}/traffic?since=${since}`)).body.entries
      .filter(
        (entry: { kind: string; method?: string }) =>
          entry.kind === "request" && entry.method === "tools/call",
      )
      .map((entry: { text: string }) => JSON.parse(entry.text).params.name);
    expect(calls).toEqual(["record", "show-lifecycle"]);
    expect(await page.locator(frameSelector).count()).toBe(1);
  });

  it("tears the view down when the person closes it: onteardown runs, then the frame goes", async () => {
    const app = page.getByTestId("tool-output").getByTestId("mcp-app");
    await app.getByTestId("mcp-app-close").click();
    await expect.poll(() => app.getByTestId("mcp-app-closed").textContent()).toBe("You closed this app.");
    expect(await logLines(app)).toEqual([
      "App log (info, lifecycle; the app's own words): teardown started",
      "App log (info, lifecycle; the app's own words): teardown recorded: recorded teardown",
    ]);
    expect(await app.getByTestId("mcp-app-frame").count()).toBe(0);
    expect(await app.getByTestId("mcp-app-teardown-unanswered").count()).toBe(0);
    expect(recorded()).toEqual(["teardown", "teardown"]);
  });

  it("tears the view down when the app asks to be closed (ui/notifications/request-teardown)", async () => {
    const frame = await runLifecycle("third");
    const app = page.getByTestId("tool-output").getByTestId("mcp-app");
    await frame.locator("#close").click();
    await expect
      .poll(() => app.getByTestId("mcp-app-closed").textContent())
      .toBe("The app asked to be closed, and was.");
    expect(await app.getByTestId("mcp-app-frame").count()).toBe(0);
    expect(recorded()).toEqual(["teardown", "teardown", "teardown"]);
  });

  it("opens the view while the call runs, and sends tool-cancelled when the person cancels the call", async () => {
    await page.getByTestId("tool-show-waiting").click();
    await page.getByTestId("field-note").fill("waiting");
    await page.getByTestId("run-tool").click();
    const frame = page.frameLocator(frameSelector).frameLocator("iframe");
    // The input arrives while the call still runs; no result yet.
    await expect.poll(async () => (await report(frame)).input).toEqual({ note: "waiting" });
    expect((await report(frame)).result).toBeUndefined();
    // Still running on the server: nothing cancelled it before the person did.
    expect(recorded()).not.toContain("show-waiting cancelled");
    await page.getByTestId("cancel-tool").click();
    await expect.poll(async () => (await report(frame)).cancelled).toBe("The person cancelled the call.");
    expect((await report(frame)).result).toBeUndefined();
    expect(await page.getByTestId("tool-call-error").textContent()).toBe("You cancelled the call.");
    // The cancel reached the server as notifications/cancelled.
    await expect.poll(() => recorded().at(-1)).toBe("show-waiting cancelled");
    // The show-waiting view was closed the spec's way when another tool was picked.
    await page.getByTestId("tool-show-lifecycle").click();
    await expect.poll(() => recorded().at(-1)).toBe("teardown");
  });

  it("sends the view nothing before its initialized notification: no context change, no tool input or result", async () => {
    await page.getByTestId("tool-show-silent").click();
    await page.getByTestId("field-note").fill("quiet");
    await page.getByTestId("run-tool").click();
    const frame = page.frameLocator(frameSelector).frameLocator("iframe");
    await expect.poll(async () => (await report(frame)).initializeAnswered).toBe(true);
    // The call is over (its result is on the page), and the width and theme change: the host holds
    // all of it back.
    await page.getByTestId("tool-output").getByText("silent: quiet").first().waitFor();
    const frameElement = page.locator(frameSelector);
    const before = await frameElement.evaluate((element: HTMLElement) => element.clientWidth);
    await page.setViewportSize({ width: 1000, height: 900 });
    await expect
      .poll(() => frameElement.evaluate((element: HTMLElement) => element.clientWidth))
      .not.toBe(before);
    await page.emulateMedia({ colorScheme: "dark" });
    await page.emulateMedia({ colorScheme: "light" });
    await page.setViewportSize({ width: 1280, height: 900 });
    // A ping's answer comes after anything the host sent before it (one channel, in order).
    await frame.locator("#ping").click();
    await expect.poll(async () => (await report(frame)).pingAnswered).toBe(true);
    expect((await report(frame)).received).toEqual([]);
    // Once initialized: the input, then the result.
    await frame.locator("#initialized").click();
    await expect
      .poll(async () => (await report(frame)).received)
      .toEqual(["ui/notifications/tool-input", "ui/notifications/tool-result"]);
    // And now it is told before it goes.
    await page.getByTestId("tool-output").getByTestId("mcp-app-close").click();
    await page.getByTestId("tool-output").getByTestId("mcp-app-closed").waitFor();
    expect(await page.getByTestId("tool-output").getByTestId("mcp-app-teardown-unanswered").count()).toBe(0);
    await page.getByTestId("tool-show-lifecycle").click();
  });

  it("sends ui/resource-teardown before removing the view when its server restarts", async () => {
    await runLifecycle("fourth");
    // The inspector's panel is rebuilt with the restarted server: what the old view showed before
    // it went is caught as it appears.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      new MutationObserver((changes) => {
        for (const change of changes)
          for (const node of change.addedNodes)
            if (node instanceof HTMLElement && /^mcp-app-(log|closed)$/.test(node.dataset.testid ?? ""))
              seen.push(node.textContent ?? "");
      }).observe(document.body, { childList: true, subtree: true });
    });
    const restarted = await api("POST", `/api/servers/${serverId}/restart`, {});
    expect(restarted.status).toBe(200);
    const seen = () => page.evaluate(() => (window as unknown as { seen: string[] }).seen);
    await expect
      .poll(async () => (await seen()).some((text) => text.startsWith("This app was closed")))
      .toBe(true);
    // The view ran its teardown and heard that its server is gone (the closed app's calls are refused).
    // (A line moved under the closing banner is seen again: each once here.)
    const closed =
      "This app was closed: server sdk was edited, restarted or removed since it opened. Run its tool again to open it on the server as it is now.";
    expect([...new Set(await seen())]).toEqual([
      "App log (info, lifecycle; the app's own words): teardown started",
      `App log (warning, lifecycle; the app's own words): teardown not recorded: ${closed}`,
      closed,
    ]);
    expect(await page.locator(frameSelector).count()).toBe(0);
    expect(recorded()).toEqual(["teardown", "teardown", "teardown", "show-waiting cancelled", "teardown"]);
    expect(pageErrors).toEqual([]);
  });
  it("in chat, sends the app's ui/message only with the person's consent, shown and sent as the app's words", async () => {
    await page.getByTestId("nav-chat").click();
    await page.getByTestId("composer").fill("open the lifecycle app");
    await page.getByTestId("send").click();
    const card = page.getByTestId("tool-card").last();
    await expect.poll(() => card.getByTestId("tool-card-status").textContent()).toMatch(/^done in \d+ ms$/);
    expect(await card.getByTestId("tool-card-name").textContent()).toBe("sdk_show-lifecycle");
    const frame = page
      .frameLocator('[data-testid="tool-card"] [data-testid="mcp-app-frame"]')
      .first()
      .frameLocator("iframe");
    await expect.poll(async () => (await report(frame)).capabilities?.message).toEqual({ text: {} });
    // toolInfo.id is the model's call id, the one the card is for; the view is the same app as the
    // inspector's, on the same origin, so it finds what those views stored.
    const callId = await card.getAttribute("data-call-id");
    expect(callId).toBeTruthy();
    const found = await report(frame);
    expect(found.toolInfo).toEqual({ id: callId, name: "show-lifecycle" });
    expect(found.origin).toBe(inspectorOrigin);
    expect(Number(found.storage.before)).toBeGreaterThanOrEqual(1);
    // The turn is over (the composer's Send is back) before the app speaks.
    await expect.poll(() => page.getByTestId("send").isEnabled()).toBe(true);
    const answers = await page.getByTestId("message-assistant").count();
    // Not sent: the app hears so, and the chat is unchanged.
    await frame.locator("#message").click();
    const prompt = card.getByTestId("app-message");
    expect(await prompt.textContent()).toBe(
      "The app asks to send this message into the chat. It will be shown and sent as the app's words, not yours. Send it?hello from the viewSendDon't send",
    );
    await prompt.getByTestId("app-message-no").click();
    await expect.poll(async () => (await report(frame)).message).toBe('{"isError":true}');
    expect(await page.getByTestId("message-app").count()).toBe(0);
    // Sent: a turn of its own, shown as the app's, never as the person's.
    await frame.locator("#message").click();
    await card.getByTestId("app-message").getByTestId("app-message-yes").click();
    await expect.poll(() => page.getByTestId("send").isEnabled()).toBe(true);
    await expect.poll(async () => (await report(frame)).message).toBe("{}");
    const fromApp = page.getByTestId("message-app");
    await expect.poll(() => fromApp.count()).toBe(1);
    expect(await fromApp.textContent()).toBe(
      "an MCP App (sent with your consent; the app's words, not yours)hello from the view",
    );
    expect(await page.getByTestId("message-user").allTextContents()).toEqual(["youopen the lifecycle app"]);
    await expect.poll(() => page.getByTestId("message-assistant").count()).toBeGreaterThan(answers);
    // The model got it marked as the app's words.
    const conversations = (await api("GET", "/api/conversations")).body as { id: string }[];
    const stored = (await api("GET", `/api/conversations/${conversations[0]!.id}`)).body.transcript.filter(
      (item: { kind: string }) => item.kind === "user",
    );
    expect(stored.map((item: { text: string }) => item.text)).toEqual([
      "open the lifecycle app",
      "[Sent by an MCP App in this chat, with the person's consent: the app's words, not the person's]\nhello from the view",
    ]);
    // Model context updates are refused, and not advertised.
    expect((await report(frame)).capabilities.updateModelContext).toBeUndefined();
    await frame.locator("#context").click();
    await expect.poll(async () => (await report(frame)).context).toMatch(/^error: /);
    expect(pageErrors).toEqual([]);
  });
});
