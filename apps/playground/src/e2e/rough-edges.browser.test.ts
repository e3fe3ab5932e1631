import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LaunchedChromium, launchChromium } from "../../test/launch-chromium.js";
import { startTestPlayground, type TestPlayground } from "../../test/test-playground.js";

// Issue 18, item 9: the rough edges a new user met on the page, each as they see it now.
const artifacts = fileURLToPath(new URL("../../test-artifacts/rough-edges/", import.meta.url));

let test: TestPlayground;
let page: Page;
let browser: LaunchedChromium | undefined;
const pageErrors: string[] = [];
const failedResponses: string[] = [];

const shot = (name: string) => browser!.shot(name);

beforeAll(async () => {
  test = await startTestPlayground();
  browser = await launchChromium({
    viewport: { width: 1280, height: 860 },
    pageErrors,
    screenshots: artifacts,
  });
  page = browser.page;
  page.on("response", (response) => {
    if (response.status() >= 400)
      failedResponses.push(`${response.status()} ${new URL(response.url()).pathname}`);
  });
});

afterAll(async () => {
  await browser?.close();
  await test?.close();
});

describe("the rough edges of issue 18, on the page", () => {
  it("loads with no failed request, and the favicon it names is served without the token", async () => {
    await page.goto(test.url);
    await expect.poll(() => page.getByTestId("server-status-everything").textContent()).toBe("connected");
    const icon = await page.evaluate(async () => {
      const href = document.querySelector<HTMLLinkElement>('link[rel="icon"]')!.href;
      const response = await fetch(href, { headers: {} });
      return [new URL(href).pathname, response.status, response.headers.get("content-type")];
    });
    expect(icon).toEqual(["/assets/favicon.svg", 200, "image/svg+xml"]);
    expect(failedResponses).toEqual([]);
  });

  it("shows the legacy server's refusal of server/discover as negotiation, and an error's kind once", async () => {
    await page.getByTestId("server-everything").click();
    await page.getByTestId("traffic").locator("summary").first().click();
    const refusal = page.locator(
      '[data-testid="traffic-row"][data-method="server/discover"][data-direction="in"]',
    );
    await refusal.waitFor();
    expect(await refusal.getAttribute("class")).toBe("traffic-row in negotiation");
    expect(await refusal.getByTestId("traffic-kind").textContent()).toBe("negotiation");
    expect(await refusal.locator(".traffic-method").textContent()).toBe(
      "#server-discover-probe-1 server/discover not offered: an earlier protocol revision, so the client uses initialize (expected)",
    );
    // The first rows are the handshake, none of them shown as an error.
    const kinds = await page.getByTestId("traffic-kind").allTextContents();
    expect(kinds.slice(0, 3)).toEqual(["request", "negotiation", "request"]);
    expect(kinds).not.toContain("error");
    await shot("01-traffic-negotiation.png");
    // A real error response names its kind in the kind column only, never "error error".
    await test.api("POST", `/api/servers/${serverId("everything")}/prompts/get`, { name: "no-such-prompt" });
    const error = page.locator('[data-testid="traffic-row"].error').first();
    await error.waitFor();
    expect(await error.getByTestId("traffic-kind").textContent()).toBe("error");
    expect(await error.locator(".traffic-method").textContent()).toMatch(/^#\d+ prompts\/get$/);
    await page.getByTestId("traffic").locator("summary").first().click();
  });

  it("adds the MCP App example in one click, shows its annotations as words, and opens its app", async () => {
    await page.getByTestId("add-example-app").click();
    await expect.poll(() => page.getByTestId("server-status-counter-app").textContent()).toBe("connected");
    expect(await page.getByTestId("add-example-app").count()).toBe(0);
    await page.getByTestId("server-counter-app").click();
    const tool = page.getByTestId("tool-show-counter");
    expect(await tool.textContent()).toBe("show-counterread-only");
    await tool.click();
    const annotations = page.getByTestId("tool-annotations");
    expect(await annotations.locator(".badge").allTextContents()).toEqual(["read-only", "closed world"]);
    expect(await annotations.locator(".badge").first().getAttribute("title")).toBe(
      "The tool does not change its environment.",
    );
    expect(await page.getByTestId("tool-annotations").textContent()).not.toContain("{");
    await page.getByTestId("field-start").fill("5");
    await page.getByTestId("run-tool").click();
    const frame = page
      .frameLocator('[data-testid="tool-output"] [data-testid="mcp-app-frame"]')
      .frameLocator("iframe");
    await expect.poll(() => frame.locator("#count").textContent()).toBe("5");
    await shot("02-example-app.png");
  });

  it("chats turn after turn with the offline model without a reused call id, and its help reads plainly", async () => {
    await page.getByTestId("nav-chat").click();
    for (const [index, prompt] of ["add 2 and 3", "add 4 and 5", "add 6 and 7"].entries()) {
      await page.getByTestId("composer").fill(prompt);
      await page.getByTestId("send").click();
      const card = page.getByTestId("tool-card").nth(index);
      await expect.poll(() => card.getByTestId("tool-card-status").textContent()).toMatch(/^done in \d+ ms$/);
      await expect.poll(() => page.getByTestId("send").isEnabled()).toBe(true);
    }
    const ids = await page
      .getByTestId("tool-card")
      .evaluateAll((cards) => cards.map((card) => card.dataset.callId));
    expect(ids).toEqual(["offline_call_1", "offline_call_2", "offline_call_3"]);
    expect(await page.getByTestId("notice").allTextContents()).toEqual([]);
    await page.getByTestId("composer").fill("hello there");
    await page.getByTestId("send").click();
    const help = page.getByTestId("message-assistant").last();
    await expect.poll(async () => (await help.textContent()) ?? "").toContain("Tools on offer: ");
    const text = (await help.textContent()) ?? "";
    expect(text).toContain(`"write a file notes.txt with 'hi'"`);
    expect(text).not.toContain("\\");
    await shot("03-offline-chat.png");
  });

  it("shows the example's app in chat when the offline model is asked for the counter", async () => {
    await page.getByTestId("composer").fill("show the counter");
    await page.getByTestId("send").click();
    const card = page.getByTestId("tool-card").last();
    await expect
      .poll(() => card.getByTestId("tool-card-name").textContent())
      .toBe("counter-app_show-counter");
    const frame = page
      .frameLocator('[data-testid="tool-card"] [data-testid="mcp-app-frame"]')
      .last()
      .frameLocator("iframe");
    await expect.poll(() => frame.locator("#count").textContent()).toBe("0");
    await shot("04-example-app-in-chat.png");
    expect(pageErrors).toEqual([]);
    expect(failedResponses).toEqual([]);
  });
});

function serverId(name: string): string {
  return test.playground.registry.list().find((server) => server.name === name)!.id;
}
