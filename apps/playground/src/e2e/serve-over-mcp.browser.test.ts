import { fileURLToPath } from "node:url";
import { MCP } from "@junction/mcp-client";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LaunchedChromium, launchChromium } from "../../test/launch-chromium.js";
import { startTestPlayground, type TestPlayground } from "../../test/test-playground.js";

// Issue 29: the playground serves its agent and its servers over MCP; the page switches it on,
// shows the endpoint with its token and client snippets, and lists the clients and their calls.
const artifacts = fileURLToPath(new URL("../../test-artifacts/serve-over-mcp/", import.meta.url));

let test: TestPlayground;
let page: Page;
let browser: LaunchedChromium | undefined;
const pageErrors: string[] = [];
let client: MCP | undefined;

beforeAll(async () => {
  test = await startTestPlayground();
  browser = await launchChromium({
    viewport: { width: 1280, height: 1000 },
    pageErrors,
    screenshots: artifacts,
  });
  page = browser.page;
});

afterAll(async () => {
  await client?.close();
  await browser?.close();
  await test?.close();
});

describe("Serve over MCP, on the page", () => {
  it("switches serving on, and shows the endpoint, its token and the client snippets", async () => {
    await page.goto(test.url);
    await page.getByTestId("nav-serve").click();
    await expect.poll(() => page.getByTestId("serve-clients").textContent()).toContain("No client yet.");
    await page.getByTestId("serve-toggle").check();
    await page.getByTestId("serve-url").waitFor();
    const status = (await test.api("GET", "/api/serve")).body;
    expect(await page.getByTestId("serve-url").textContent()).toBe(status.url);
    expect(await page.getByTestId("serve-token").textContent()).toBe(status.token);
    expect(await page.getByTestId("snippet-claude-code").textContent()).toBe(
      `claude mcp add --transport http junction-playground ${status.url} --header "Authorization: Bearer ${status.token}"`,
    );
    expect(JSON.parse((await page.getByTestId("snippet-mcp-servers").textContent())!)).toEqual({
      mcpServers: {
        "junction-playground": {
          type: "http",
          url: status.url,
          headers: { Authorization: `Bearer ${status.token}` },
        },
      },
    });
    await expect.poll(() => page.getByTestId("serve-tools").textContent()).toContain("ask_playground, ");
    expect(await page.getByTestId("serve-approvals").textContent()).toContain(
      "not to this page's approval cards",
    );
    expect(pageErrors).toEqual([]);
  });

  it("lists a client and its calls as they happen, and a hostile client's name as inert text", async () => {
    const url = (await page.getByTestId("serve-url").textContent())!;
    const token = (await page.getByTestId("serve-token").textContent())!;
    client = new MCP({
      name: "served",
      transport: "http",
      url,
      headers: { authorization: `Bearer ${token}` },
      protocolVersion: "2025-11-25",
      reconnect: false,
    });
    await client.connect();
    await client.callTool("everything_echo", { message: "from the test" });
    await client.callTool("ask_playground", { request: "add 2 and 3" });
    await client.callTool("ask_playground", { request: 'write a file page.txt with "hi"' });
    const hostileName = '<img src=x onerror="window.__served_pwned=1">';
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: hostileName, version: "6.6.6" },
        },
      }),
    });
    expect(response.status).toBe(200);

    await expect.poll(() => page.getByTestId("serve-call").count(), { timeout: 10_000 }).toBe(3);
    expect(await page.getByTestId("call-tool").allTextContents()).toEqual([
      "ask_playground",
      "ask_playground",
      "everything_echo",
    ]);
    // Polled too: the page refreshes every 1.5 s, and the render that first lists three calls can
    // be one made while the last was still running (the server records its end before it answers).
    await expect
      .poll(() => page.getByTestId("call-outcome").allTextContents(), { timeout: 10_000 })
      .toEqual([
        expect.stringMatching(
          /^error — The agent behind "ask_playground" needs a person to approve its call to "filesystem_write_file"/,
        ),
        "ok",
        "ok",
      ]);
    await expect
      .poll(() => page.getByTestId("client-name").allTextContents())
      .toEqual(expect.arrayContaining(["junction-mcp-client", hostileName]));
    // The markup a client sent is text: no element was made of it, and nothing ran.
    expect(await page.getByTestId("serve-view").locator("img").count()).toBe(0);
    expect(await page.evaluate(() => (window as { __served_pwned?: number }).__served_pwned)).toBeUndefined();
    expect(pageErrors).toEqual([]);
    await browser!.shot("clients-and-calls.png");
  });

  it("switches serving off from the page", async () => {
    const url = (await page.getByTestId("serve-url").textContent())!;
    await client?.close();
    client = undefined;
    await page.getByTestId("serve-toggle").uncheck();
    await page.getByTestId("serve-url").waitFor({ state: "detached" });
    expect((await test.api("GET", "/api/serve")).body).toMatchObject({ enabled: false, url: null });
    await expect(fetch(url, { method: "POST" })).rejects.toThrow();
  });
});
