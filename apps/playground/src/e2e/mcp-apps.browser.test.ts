import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { BrowserContext, FrameLocator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LaunchedChromium, launchChromium } from "../../test/launch-chromium.js";
import { startTurnListener, type TurnListener } from "../../test/turn-listener.js";
import { openPlayground, type Playground } from "../server/app.js";
import { startHttpServer } from "../server/http-server.js";
import { createToken } from "../server/security.js";

// MCP Apps in a real browser: a counter app and a hostile app from a server of our own (written
// with the official SDK), rendered by the playground in the inspector and in chat.
const artifacts = fileURLToPath(new URL("../../test-artifacts/mcp-apps/", import.meta.url));
const appsServer = fileURLToPath(new URL("../__fixtures__/mcp-apps-server.mjs", import.meta.url));

interface SeenRequest {
  url: string;
  origin?: string;
  site?: string;
  hasToken: boolean;
}

let playground: Playground;
let http: Awaited<ReturnType<typeof startHttpServer>>;
let directory: string;
let token: string;
let other: Server;
let otherOrigin: string;
const otherHits: string[] = [];
/** The Origin of each request the other origin got, by its path. */
const otherOrigins = new Map<string, string | undefined>();
/** A loopback UDP "attacker" playing a TURN server, and an origin an app declares for resources and frames. */
let turn: TurnListener;
let leak: Server;
let leakOrigin: string;
const leakHits: string[] = [];
const seen: SeenRequest[] = [];
/** Every request the app origin got, with the status it answered. */
const appSeen: {
  url: string;
  site?: string;
  destination?: string;
  origin?: string;
  referer?: string;
  status: number;
}[] = [];
let neighbourFile: string;
let appsServerId: string;
/** The document the hostile test loaded itself (to show it was still there), not a frame's load. */
let loadedByTest = "";
let context: BrowserContext;
let page: Page;
let browser: LaunchedChromium | undefined;
const pageErrors: string[] = [];

const shot = (name: string) => page.screenshot({ path: join(artifacts, name), fullPage: true });
/** What is said under every app that ran for a tool call: WebRTC is open, whatever it declares. */
const webrtcWarning =
  "Not blocked: WebRTC. Whatever it declares, this app can send what it is given (the tool's input and result) to any server. Do not type passwords, API keys or other secrets into this tool's form.";
const report = async (frame: FrameLocator): Promise<Record<string, any>> =>
  JSON.parse((await frame.locator("#report").textContent()) ?? "{}");

beforeAll(async () => {
  rmSync(artifacts, { recursive: true, force: true });
  mkdirSync(artifacts, { recursive: true });
  // Another origin: the counter app declares it in its CSP, the hostile app tries it undeclared.
  other = createServer((request, response) => {
    otherHits.push(`${request.method} ${request.url}`);
    otherOrigins.set(request.url ?? "", request.headers.origin);
    response.writeHead(200, { "access-control-allow-origin": "*", "content-type": "text/plain" });
    response.end("hello");
  });
  await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
  otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;

  turn = await startTurnListener();
  leak = createServer((request, response) => {
    leakHits.push(`${request.method} ${request.url}`);
    response.writeHead(200, { "content-type": "text/plain" });
    response.end("got it");
  });
  await new Promise<void>((resolve) => leak.listen(0, "127.0.0.1", resolve));
  leakOrigin = `http://127.0.0.1:${(leak.address() as AddressInfo).port}`;

  directory = mkdtempSync(join(tmpdir(), "junction-playground-apps-"));
  playground = await openPlayground({ directory, environment: {}, seedDefaults: false });
  token = createToken();
  http = await startHttpServer(playground, { token, port: 0 });
  // Every request the playground gets, to prove none came from an app.
  http.server.prependListener("request", (request) => {
    const url = request.url ?? "";
    seen.push({
      url,
      origin: request.headers.origin,
      site: request.headers["sec-fetch-site"] as string | undefined,
      hasToken: request.headers.authorization === `Bearer ${token}` || url.includes(`token=${token}`),
    });
  });
  http.appServer.prependListener("request", (request, response) => {
    response.on("finish", () =>
      appSeen.push({
        url: request.url ?? "",
        site: request.headers["sec-fetch-site"] as string | undefined,
        destination: request.headers["sec-fetch-dest"] as string | undefined,
        origin: request.headers.origin,
        referer: request.headers.referer,
        status: response.statusCode,
      }),
    );
  });
  neighbourFile = join(directory, "neighbour.json");
  const added = await fetch(`http://127.0.0.1:${http.port}/api/servers`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({
      name: "apps",
      config: {
        command: process.execPath,
        args: [
          appsServer,
          ...["--allowed-origin", otherOrigin, "--other-origin", otherOrigin],
          ...["--playground-origin", `http://127.0.0.1:${http.port}`],
          ...["--app-origin", `http://*.localhost:${http.appPort}`, "--neighbour-file", neighbourFile],
          ...["--turn-port", String(turn.port), "--leak-origin", leakOrigin],
        ],
      },
    }),
  });
  const server = (await added.json()) as { id: string; status: string };
  expect(server.status).toBe("connected");
  appsServerId = server.id;

  // Third-party storage as Chrome allows it by default: an app's storage is then its own (and
  // never the page's), which is what the hostile app is checked against.
  browser = await launchChromium({
    viewport: { width: 1280, height: 900 },
    pageErrors,
    thirdPartyStorage: true,
  });
  ({ context, page } = browser);
});

afterAll(async () => {
  await browser?.close();
  await http?.close();
  await playground?.close();
  await new Promise((resolve) => other?.close(resolve));
  await new Promise((resolve) => leak?.close(resolve));
  await turn?.close();
  if (directory) rmSync(directory, { recursive: true, force: true });
});

/** Loads an app document as the page's frame would (its Host, the page's Referer); the status. */
function frameRequest(url: string, referer: string): Promise<number | undefined> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    request(
      {
        host: "127.0.0.1",
        port: Number(target.port),
        path: target.pathname,
        headers: { host: target.host, "sec-fetch-dest": "iframe", referer },
      },
      (response) => {
        response.resume();
        resolve(response.statusCode);
      },
    )
      .on("error", reject)
      .end();
  });
}

async function runTool(name: string, fill?: () => Promise<void>): Promise<void> {
  await page.getByTestId(`tool-${name}`).click();
  await fill?.();
  await page.getByTestId("run-tool").click();
}

describe("MCP Apps in a real browser", () => {
  it("renders the counter app under the inspector's result, fed the tool's input and result", async () => {
    await page.goto(http.url);
    await expect.poll(() => page.getByTestId("server-status-apps").textContent()).toBe("connected");
    await page.getByTestId("server-apps").click();
    await runTool("show-counter", () => page.getByTestId("field-start").fill("3"));
    const app = page.getByTestId("tool-output").getByTestId("mcp-app");
    const frame = page
      .frameLocator('[data-testid="tool-output"] [data-testid="mcp-app-frame"]')
      .frameLocator("iframe");
    await expect.poll(() => frame.locator("#count").textContent()).toBe("3");
    expect(await frame.locator("#input").textContent()).toBe('input: {"start":3}');
    expect(await frame.locator("#host").textContent()).toBe("in junction-playground");
    // A read-only, closed-world tool runs without asking, as in chat.
    await expect.poll(() => frame.locator("#peek").textContent()).toBe("peeked: the server is fine");
    // The one origin the app declared in _meta.ui.csp is reachable.
    await expect
      .poll(() => frame.locator("#network").textContent())
      .toBe("declared origin answered: 200 hello");
    expect(otherHits).toEqual(["GET /from-counter"]);
    const attributes = await app.getByTestId("mcp-app-frame").evaluate((element: HTMLIFrameElement) => ({
      sandbox: element.getAttribute("sandbox"),
      src: element.getAttribute("src"),
      referrerPolicy: element.getAttribute("referrerpolicy"),
    }));
    // The outer frame is the sandbox proxy (the spec's allow-scripts allow-same-origin); the page
    // sends its origin only as the Referer, so the app origin hands the proxy to this page alone.
    expect(attributes.sandbox).toBe("allow-scripts allow-same-origin");
    expect(attributes.referrerPolicy).toBe("origin");
    // From the app's own origin: a .localhost name of its own on the app port (not the page's origin).
    expect(attributes.src).toMatch(
      new RegExp(`^http://[a-z0-9]{32}\\.localhost:${http.appPort}/[A-Za-z0-9_-]{32}$`),
    );
    expect(http.appPort).not.toBe(http.port);
    // The declared API saw the view's real origin (the app's), not "null" and not the page's.
    expect(otherOrigins.get("/from-counter")).toBe(new URL(attributes.src!).origin);
    // The label names every origin the app may send requests to, and that WebRTC is open anyway.
    expect(await app.locator(".mcp-app-header").textContent()).toBe(
      `MCP App ui://apps/counter.html · server apps · sandboxed, may send requests to ${otherOrigin} (fetch and WebSocket)${webrtcWarning}`,
    );
    // The app asked for more room; the host gave it.
    expect(
      await app.getByTestId("mcp-app-frame").evaluate((element: HTMLElement) => element.style.height),
    ).not.toBe("160px");
    await shot("01-mcp-app-in-inspector.png");
  });

  it("asks the person before the app's tools/call of an unannotated tool, and answers the app either way", async () => {
    const app = page.getByTestId("tool-output").getByTestId("mcp-app");
    const frame = page
      .frameLocator('[data-testid="tool-output"] [data-testid="mcp-app-frame"]')
      .frameLocator("iframe");
    await frame.locator("#plus").click();
    const approval = app.getByTestId("app-approval");
    await approval.waitFor();
    expect(await approval.textContent()).toContain(
      "The app asks to run apps_increment with these arguments. Allow?",
    );
    expect(JSON.parse((await approval.locator("pre").textContent()) ?? "")).toEqual({ count: 3 });
    await shot("02-mcp-app-tool-call-approval.png");
    await approval.getByTestId("app-approval-yes").click();
    await expect.poll(() => frame.locator("#count").textContent()).toBe("4");
    expect(await frame.locator("#status").textContent()).toBe("increment: The count is now 4.");

    await frame.locator("#plus").click();
    await app.getByTestId("app-approval").getByTestId("app-approval-no").click();
    await expect
      .poll(() => frame.locator("#status").textContent())
      .toBe("increment refused: The person denied the call of apps_increment.");
    expect(await frame.locator("#count").textContent()).toBe("4");
  });

  it("opens an app's http(s) link in a new tab only once the person agrees", async () => {
    const app = page.getByTestId("tool-output").getByTestId("mcp-app");
    const frame = page
      .frameLocator('[data-testid="tool-output"] [data-testid="mcp-app-frame"]')
      .frameLocator("iframe");
    await frame.locator("#link").click();
    const prompt = app.getByTestId("app-open-link");
    expect(await prompt.textContent()).toBe(
      "The app asks to open this link in a new tab:https://example.com/counter-docsOpenCancel",
    );
    await prompt.getByTestId("app-open-link-no").click();
    await expect.poll(() => frame.locator("#status").textContent()).toBe("link: not opened");
    expect(context.pages()).toHaveLength(1);
    // No network here: the browser answers for example.com itself.
    await context.route("https://example.com/**", (route) =>
      route.fulfill({ status: 200, contentType: "text/plain", body: "counter docs" }),
    );
    const opened = context.waitForEvent("page");
    await frame.locator("#link").click();
    await app.getByTestId("app-open-link").getByTestId("app-open-link-yes").click();
    await expect.poll(() => frame.locator("#status").textContent()).toBe("link: opened");
    const tab = await opened;
    await tab.waitForLoadState();
    expect(tab.url()).toBe("https://example.com/counter-docs");
    // noopener: the new tab cannot reach back into the playground.
    expect(await tab.evaluate(() => window.opener)).toBeNull();
    await tab.close();
  });

  it("refuses everything the hostile app tries: the page, the token, storage, other origins and protocol misuse", async () => {
    const before = seen.length;
    // The hostile app learns two other apps' document URLs: the counter's, already loaded, and
    // one opened (as the page would) but not loaded yet.
    const opened = await page.getByTestId("mcp-app-frame").first().getAttribute("src");
    const unopened = (
      (await (
        await fetch(`http://127.0.0.1:${http.port}/api/servers/${appsServerId}/apps`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify({ tool: "show-counter" }),
        })
      ).json()) as { frameUrl: string }
    ).frameUrl;
    writeFileSync(neighbourFile, JSON.stringify({ opened, unopened }));
    await runTool("show-hostile");
    const app = page.getByTestId("tool-output").getByTestId("mcp-app");
    const frame = page
      .frameLocator('[data-testid="tool-output"] [data-testid="mcp-app-frame"]')
      .frameLocator("iframe");
    await expect.poll(async () => (await report(frame)).destructiveTool).toBe("waiting");
    // Its destructive call waits for the person, who denies it.
    const approval = app.getByTestId("app-approval");
    expect(await approval.textContent()).toContain(
      "The app asks to run apps_wipe with these arguments. Allow?",
    );
    await approval.getByTestId("app-approval-no").click();
    await expect.poll(async () => (await report(frame)).done).toBe(true);
    await expect.poll(async () => (await report(frame)).webSocket).toBeDefined();
    const found = await report(frame);

    // The page, its location (with the token) and its storage are out of reach. The view reaches
    // its own sandbox proxy only (the app's origin, holding nothing but this app's HTML).
    expect(found.proxyDocument).toBe("ALLOWED: MCP App sandbox");
    expect(found.parentDocument).toBe("refused: SecurityError");
    expect(found.topLocationRead).toBe("refused: SecurityError");
    expect(found.parentLocalStorage).toBe("refused: SecurityError");
    // Its cookies and storage are its own origin's, empty: never the page's.
    expect(found.cookie).toBe("ALLOWED: ");
    expect(found.localStorage).toBe("ALLOWED: 0");
    expect(found.sessionStorage).toBe("ALLOWED: 0");
    const hostileOrigin = new URL((await page.getByTestId("mcp-app-frame").last().getAttribute("src"))!)
      .origin;
    expect(found.visible.origin).toBe(hostileOrigin);
    expect(hostileOrigin).toMatch(new RegExp(`^http://[a-z0-9]{32}\\.localhost:${http.appPort}$`));
    // A view of another app has another origin.
    expect(new URL(opened!).origin).not.toBe(hostileOrigin);
    expect(found.visible.referrer).toBe("");
    expect(found.visible.name).toBe("");
    expect(JSON.stringify(found.visible)).not.toContain(token);
    expect(JSON.stringify(found)).not.toContain(token);
    // No navigation of the page, no popup, no form.
    expect(found.topNavigate).toBe("refused: SecurityError");
    expect(found.windowOpen).toBe("refused: no window");
    expect(found.formToTop).toBe("submitted");
    expect(page.url()).toBe(`${http.url}#servers`);
    // No network: the playground's API and page, another origin, a WebSocket.
    expect(found.fetchPlaygroundApi).toBe("refused: TypeError");
    expect(found.fetchPlaygroundPage).toBe("refused: TypeError");
    expect(found.fetchOtherOrigin).toBe("refused: TypeError");
    expect(found.webSocket).toMatch(/^refused: /);
    // Every other way out: refused by the CSP or the sandbox (a beacon is queued, then blocked).
    expect({
      xhr: found.xhr,
      eventSource: found.eventSource,
      beacon: found.beacon,
      worker: found.worker,
      sharedWorker: found.sharedWorker,
      serviceWorker: found.serviceWorker,
      script: found.script,
      stylesheet: found.stylesheet,
      font: found.font,
      audio: found.audio,
      moduleImport: found.moduleImport,
    }).toEqual({
      xhr: "refused: error",
      eventSource: "refused: error",
      beacon: "queued",
      worker: "refused: error",
      sharedWorker: "refused: SecurityError",
      serviceWorker: "refused: SecurityError",
      script: "refused: error",
      stylesheet: "refused: error",
      font: "refused: NetworkError",
      audio: "refused: error",
      moduleImport: "refused: TypeError",
    });
    expect(found.cspViolations).toEqual(
      expect.arrayContaining([
        `img-src ${otherOrigin}/beacon.png`,
        // A blocked frame is reported by its origin only.
        `frame-src ${otherOrigin}`,
        `connect-src http://127.0.0.1:${http.port}/api/servers`,
        `connect-src ${otherOrigin}/fetch`,
        `connect-src ${otherOrigin}/xhr`,
        `connect-src ${otherOrigin}/events`,
        `connect-src ${otherOrigin}/beacon`,
        "worker-src blob",
        `script-src-elem ${otherOrigin}/script.js`,
        `script-src-elem ${otherOrigin}/module.js`,
        `style-src-elem ${otherOrigin}/style.css`,
        `font-src ${otherOrigin}/font.woff`,
        `media-src ${otherOrigin}/audio.wav`,
        `img-src ${otherOrigin}/background.png`,
        `object-src ${otherOrigin}`,
      ]),
    );
    // Another app's document, though the hostile app's CSP allows the app origin: refused by
    // the app origin itself (a fetch carries an Origin, a no-cors fetch is not for a frame (and its refusal is
    // same-origin only, so not even an opaque answer comes back), a
    // frame from an opaque origin is cross-site), and the unopened one is still there for its page.
    expect(found.neighbourFetch).toBe("refused: TypeError");
    expect(found.appOriginApi).toBe("refused: TypeError");
    expect(found.neighbourNoCors).toBe("refused: TypeError");
    expect(found.neighbourFrame).toBe("refused: SecurityError");
    expect(found.neighbourFrameOpened).toBe("refused: SecurityError");
    const unopenedPath = new URL(unopened).pathname;
    const openedPath = new URL(opened!).pathname;
    const attempts = appSeen.filter((request) => request.url === unopenedPath || request.url === openedPath);
    // The fetch carries an Origin (403); the no-cors fetch is not for a frame (404); the frames the
    // hostile app opens carry no Referer of the page (404): none takes the document.
    expect(attempts.map(({ url, status }) => [url === unopenedPath ? "unopened" : "opened", status])).toEqual(
      [
        ["opened", 200],
        ["unopened", 403],
        ["unopened", 404],
        ["unopened", 404],
        ["opened", 404],
      ],
    );
    expect(appSeen.find((request) => request.url === "/api/servers")?.status).toBe(403);
    loadedByTest = unopenedPath;
    const still = await frameRequest(unopened, `http://127.0.0.1:${http.port}/`);
    expect(still).toBe(200);
    // The protocol: every misuse answered with a JSON-RPC error.
    expect(found.oversized).toBe(
      "error -32600: The message is larger than the host's limit of 262144 bytes.",
    );
    expect(found.notJsonRpc).toBe('error -32600: Not a JSON-RPC 2.0 request: jsonrpc is not "2.0".');
    expect(found.unknownMethod).toBe("error -32601: The host does not support evil/escalate.");
    expect(found.openLinkJavascript).toBe("error -32602: Only http and https links open.");
    expect(found.message).toBe(
      "error -32000: ui/message is refused here: only an app in the chat may send a message, with the person's consent.",
    );
    expect(found.modelOnlyTool).toBe(
      "error -32000: The tool model-only is not visible to apps (_meta.ui.visibility).",
    );
    expect(found.otherServerTool).toBe("error -32000: Server apps has no tool named filesystem_write_file.");
    expect(found.initialize).toMatch(
      /^result \{"protocolVersion":"2026-01-26","hostInfo":\{"name":"junction-playground"/,
    );
    expect(found.destructiveTool).toBe("error -32000: The person denied the call of apps_wipe.");
    // The host shows what it dropped from the declared CSP.
    expect(await app.getByTestId("mcp-app-status").textContent()).toContain(
      'CSP: csp.connectDomains: "*" is not an origin; ignored.',
    );

    // Nothing reached the other origin but the counter app's declared fetch,
    expect(otherHits).toEqual(["GET /from-counter"]);
    // and every request the playground got came from the page with its token, or loaded a frame.
    const fromApps = seen.slice(before).filter((request) => !request.hasToken);
    expect(fromApps).toEqual([]);
    expect(seen.filter((request) => request.origin === "null" || request.site === "cross-site")).toEqual([]);
    expect(pageErrors).toEqual([]);
    await app.screenshot({ path: join(artifacts, "03-mcp-app-hostile-all-refused.png") });
  });

  it("ignores a message that does not come from the app's own frame, and never reloads an app", async () => {
    const before = seen.length;
    await page.evaluate(() =>
      window.postMessage(
        { jsonrpc: "2.0", id: 99, method: "tools/call", params: { name: "wipe", arguments: {} } },
        "*",
      ),
    );
    // Long enough for the servers view's periodic refresh, which must not reload the app.
    await page.waitForTimeout(4500);
    expect(await page.getByTestId("app-approval").allTextContents()).toEqual([]);
    // Each app's frame loaded its proxy once, from the app origin; the playground served none.
    const frameLoads = appSeen.filter(
      (request) =>
        request.destination === "iframe" &&
        request.referer === `http://127.0.0.1:${http.port}/` &&
        request.url !== loadedByTest,
    );
    const loads = new Map<string, number>();
    for (const request of frameLoads) loads.set(request.url, (loads.get(request.url) ?? 0) + 1);
    expect([...loads.values()]).toEqual([1, 1]);
    expect(frameLoads.map((request) => request.status)).toEqual([200, 200]);
    expect(seen.filter((request) => request.url.startsWith("/mcp-apps/"))).toEqual([]);
    expect(seen.slice(before).filter((request) => request.url.startsWith("/api/apps/"))).toEqual([]);
  });

  it("rate-limits a flood of messages from one app", async () => {
    const app = page.getByTestId("tool-output").getByTestId("mcp-app");
    const frame = page
      .frameLocator('[data-testid="tool-output"] [data-testid="mcp-app-frame"]')
      .frameLocator("iframe");
    await frame.locator("#flood").click();
    await expect.poll(async () => (await report(frame)).flood).toBeDefined();
    const answered = Number(/^(\d+) of 3000 answered$/.exec((await report(frame)).flood)?.[1]);
    expect(answered).toBeGreaterThanOrEqual(40);
    expect(answered).toBeLessThan(200);
    const drops = (await app.getByTestId("mcp-app-drops").textContent()) ?? "";
    const rate = Number(/Refused messages: (\d+) over the rate limit/.exec(drops)?.[1]);
    expect(rate).toBe(3000 - answered);
    await app.screenshot({ path: join(artifacts, "04-mcp-app-flood-rate-limited.png") });
  });

  it("keeps an app from navigating its own frame to another origin", async () => {
    const frameElement = page.getByTestId("tool-output").getByTestId("mcp-app-frame");
    await page
      .frameLocator('[data-testid="tool-output"] [data-testid="mcp-app-frame"]')
      .frameLocator("iframe")
      .locator("#leave")
      .click();
    await page.waitForTimeout(1000);
    expect(otherHits).toEqual(["GET /from-counter"]);
    // The view is the proxy's inner frame: the proxy's CSP (the app's frame-src) keeps it home.
    const proxy = await (await frameElement.elementHandle())?.contentFrame();
    expect(proxy?.url()).not.toContain(otherOrigin);
    const views = proxy?.childFrames().map((view) => view.url()) ?? [];
    expect(views).toHaveLength(1);
    expect(views[0]).not.toContain(otherOrigin);
  });

  it("previews a ui:// resource in the Resources tab in the same sandbox, its tool calls refused, its source as text", async () => {
    const before = seen.length;
    await page.getByTestId("tab-resources").click();
    await page.getByTestId("resource-list").getByText("ui://apps/counter.html", { exact: true }).click();
    const preview = page.getByTestId("resource-app").getByTestId("mcp-app-preview");
    await expect
      .poll(() => preview.locator(".mcp-app-header").textContent())
      .toBe(
        `MCP App preview ui://apps/counter.html · server apps · sandboxed, may send requests to ${otherOrigin} (fetch and WebSocket) · no tools (a preview, not a tool call)Not blocked: WebRTC. Whatever it declares, this app can reach any server.`,
      );
    const frameElement = preview.getByTestId("mcp-app-frame");
    expect(await frameElement.getAttribute("sandbox")).toBe("allow-scripts allow-same-origin");
    expect(await frameElement.getAttribute("src")).toMatch(
      new RegExp(`^http://[a-z0-9]{32}\\.localhost:${http.appPort}/[A-Za-z0-9_-]{32}$`),
    );
    const frame = page
      .frameLocator('[data-testid="mcp-app-preview"] [data-testid="mcp-app-frame"]')
      .frameLocator("iframe");
    await expect.poll(() => frame.locator("#host").textContent()).toBe("in junction-playground");
    // No tool call, so no tool input or result: the app still waits for them.
    expect(await frame.locator("#status").textContent()).toBe("connecting…");
    await frame.locator("#plus").click();
    await expect
      .poll(() => frame.locator("#status").textContent())
      .toBe("increment refused: This is a preview of the resource: it may call no tools.");
    expect(await page.getByTestId("app-approval").count()).toBe(0);
    expect(seen.slice(before).filter((request) => request.url.includes("/tools/call"))).toEqual([]);
    // The source is there too, as inert text.
    const source = page.getByTestId("resource-app-source");
    expect(await source.locator("summary").textContent()).toBe(
      "Source (the app's HTML, shown as text: it does not run here)",
    );
    await source.locator("summary").click();
    expect(await source.locator("pre").textContent()).toContain("<h2>Counter app");
    expect(await source.locator("script").count()).toBe(0);
    expect(pageErrors).toEqual([]);
    await shot("06-mcp-app-resource-preview.png");
  });

  // Issue 17, hole 1: Chromium 156 enforces no policy on WebRTC in the app's frame (no CSP
  // `webrtc` directive, no Permissions-Policy feature, no sandbox flag), so the page must not
  // promise "no network". What the person typed reaches a loopback TURN listener all the same.
  it("warns at the tool's form and under an app that declares no origin that WebRTC is open, which is true: the input reaches a loopback TURN listener", async () => {
    await page.getByTestId("tab-tools").click();
    await page.getByTestId("tool-show-webrtc").click();
    const formWarning = page.getByTestId("app-form-warning");
    await expect.poll(() => formWarning.isVisible()).toBe(true);
    expect(await formWarning.textContent()).toBe(
      "This tool opens an MCP App. Whatever the app declares, it can send what you type here to any server (through WebRTC, which no browser policy blocks): do not type passwords, API keys or other secrets.",
    );
    const secret = "typed-into-the-form-4711";
    await page.getByTestId("field-note").fill(secret);
    await page.getByTestId("run-tool").click();
    const app = page.getByTestId("tool-output").getByTestId("mcp-app");
    await expect
      .poll(() => app.locator(".mcp-app-header").textContent())
      .toBe(
        `MCP App ui://apps/webrtc.html · server apps · sandboxed, declares no origin it may send requests to${webrtcWarning}`,
      );
    expect(await app.getByTestId("mcp-app-webrtc").isVisible()).toBe(true);
    // The served policy is the strictest the playground builds, and the secret still leaves.
    await expect.poll(() => turn.usernames).toContain(secret);
    expect(turn.packets).toBeGreaterThan(1);
    await app.screenshot({ path: join(artifacts, "07-mcp-app-webrtc-warning.png") });
    // A tool without an app gets no such note.
    await page.getByTestId("tool-wipe").click();
    await page.getByTestId("run-tool").waitFor();
    await page.waitForTimeout(300);
    expect(await page.getByTestId("app-form-warning").isVisible()).toBe(false);
  });

  // Issue 17, hole 4: origins declared only as resource or frame origins receive requests too.
  it("lists an origin declared only for resources and frames in the app's label, where the app does send its input", async () => {
    await runTool("show-resource-leak", () => page.getByTestId("field-note").fill("leaked-by-image"));
    const app = page.getByTestId("tool-output").getByTestId("mcp-app");
    await expect
      .poll(() => app.locator(".mcp-app-header").textContent())
      .toBe(
        `MCP App ui://apps/resource-leak.html · server apps · sandboxed, may send requests to ${leakOrigin} (scripts, styles, images, fonts and media; frames)${webrtcWarning}`,
      );
    expect(await app.locator(".mcp-app-header").textContent()).not.toContain("no network");
    await expect
      .poll(() => [...leakHits].sort())
      .toEqual(["GET /frame?note=leaked-by-image", "GET /image?note=leaked-by-image"]);
  });

  it("renders the app inline in chat under the tool card, and its tool call asks there", async () => {
    await page.getByTestId("nav-chat").click();
    await page.getByTestId("composer").fill("open the counter app");
    await page.getByTestId("send").click();
    const card = page.getByTestId("tool-card").last();
    await expect.poll(() => card.getByTestId("tool-card-status").textContent()).toMatch(/^done in \d+ ms$/);
    expect(await card.getByTestId("tool-card-name").textContent()).toBe("apps_show-counter");
    const frame = page
      .frameLocator('[data-testid="tool-card"] [data-testid="mcp-app-frame"]')
      .last()
      .frameLocator("iframe");
    await expect.poll(() => frame.locator("#count").textContent()).toBe("0");
    await expect.poll(() => frame.locator("#peek").textContent()).toBe("peeked: the server is fine");
    await frame.locator("#plus").click();
    await card.getByTestId("app-approval").getByTestId("app-approval-yes").click();
    await expect.poll(() => frame.locator("#count").textContent()).toBe("1");
    await expect
      .poll(() => page.getByTestId("message-assistant").last().textContent())
      .toContain("apps_show-counter returned");
    await shot("05-mcp-app-in-chat.png");
  });
  // Issue 17, hole 5: an open app is bound to the connection it was opened on.
  it("closes an open app and drops its queued approval when its server is edited to run something else", async () => {
    // The counter app in chat, from the test before: it stays on the page while its server changes
    // (the inspector's, under the servers view, is re-rendered with the server).
    const card = page.getByTestId("tool-card").last();
    const app = card.getByTestId("mcp-app");
    const frame = page
      .frameLocator('[data-testid="tool-card"] [data-testid="mcp-app-frame"]')
      .last()
      .frameLocator("iframe");
    await expect.poll(() => frame.locator("#count").textContent()).toBe("1");
    await frame.locator("#plus").click();
    await app.getByTestId("app-approval").waitFor();
    const appId = (await app.getAttribute("data-app-id"))!;
    const api = (method: string, path: string, body?: unknown) =>
      fetch(`http://127.0.0.1:${http.port}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then(async (response) => ({ status: response.status, body: await response.json() }));
    // A second call queued by the app's id, answered only after the edit.
    const queued = await api("POST", `/api/apps/${appId}/tools/call`, {
      name: "increment",
      arguments: { count: 1 },
    });
    expect(queued.body.approval.name).toBe("apps_increment");

    const stored = (await api("GET", "/api/servers")).body.find(
      (server: { id: string }) => server.id === appsServerId,
    );
    const edited = await api("PUT", `/api/servers/${appsServerId}`, {
      name: "apps",
      config: { ...stored.config, args: [...stored.config.args, "--edited"] },
    });
    expect(edited.body.status).toBe("connected");
    const since = (await api("GET", `/api/servers/${appsServerId}/traffic`)).body.entries.at(-1).seq;

    const closed =
      "This app was closed: server apps was edited, restarted or removed since it opened. Run its tool again to open it on the server as it is now.";
    await expect.poll(() => app.getByTestId("mcp-app-closed").textContent()).toBe(closed);
    expect(await app.getByTestId("mcp-app-frame").count()).toBe(0);
    expect(await app.getByTestId("app-approval").count()).toBe(0);
    // Every request by the app's id is refused: a read-only call, the queued approval, a new call.
    expect(await api("POST", `/api/apps/${appId}/tools/call`, { name: "peek" })).toEqual({
      status: 400,
      body: { error: closed },
    });
    expect(
      await api("POST", `/api/apps/${appId}/approvals/${queued.body.approval.id}`, { approve: true }),
    ).toEqual({ status: 400, body: { error: closed } });
    // The replacement server was never called on the closed app's behalf.
    const after = (await api("GET", `/api/servers/${appsServerId}/traffic?since=${since}`)).body.entries;
    expect(after.filter((entry: { method?: string }) => entry.method === "tools/call")).toEqual([]);
    await app.screenshot({ path: join(artifacts, "08-mcp-app-closed-on-edit.png") });
    expect(pageErrors).toEqual([]);
  });
});
