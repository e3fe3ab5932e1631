import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LaunchedChromium, launchChromium } from "../testing/launch-chromium.js";
import { startTestPlayground, type TestPlayground } from "../testing/test-playground.js";

// Issue 19: a run stopped for an approval is data in the playground's SQLite store, so the
// question outlives the playground's process and the answer, after a restart, finishes the run.
const artifacts = fileURLToPath(new URL("../../test-artifacts/run-state/", import.meta.url));

let test: TestPlayground;
let page: Page;
let browser: LaunchedChromium | undefined;
const pageErrors: string[] = [];

beforeAll(async () => {
  test = await startTestPlayground();
  browser = await launchChromium({
    viewport: { width: 1280, height: 860 },
    pageErrors,
    screenshots: artifacts,
  });
  page = browser.page;
});

afterAll(async () => {
  await browser?.close();
  await test?.close();
});

describe("a pending approval and a restart of the playground", () => {
  it("shows the waiting call again after the restart, and approving it from the page finishes the run", async () => {
    await page.goto(test.url);
    await page.getByTestId("nav-chat").click();
    await page.getByTestId("composer").fill('write a file survivor.txt with "approved after a restart"');
    await page.getByTestId("send").click();
    const approval = page.getByTestId("approval");
    await approval.waitFor();
    expect(await approval.textContent()).toContain(
      "Allow filesystem_write_file to run with these arguments?",
    );
    await browser!.shot("01-waiting-before-restart.png");

    // The playground goes away with the question unanswered, and comes back on the same data.
    const directory = test.directory;
    await test.close({ keepDirectory: true });
    test = await startTestPlayground({ directory });
    await page.goto(test.url);
    await page.getByTestId("nav-chat").click();
    await page.getByTestId("conversation-item").first().click();
    const again = page.getByTestId("approval");
    await again.waitFor();
    expect(JSON.parse((await again.getByTestId("approval-arguments").textContent()) ?? "")).toMatchObject({
      content: "approved after a restart",
    });
    await browser!.shot("02-waiting-after-restart.png");
    await again.getByTestId("approve").click();

    const card = page.getByTestId("tool-card").last();
    await expect.poll(() => card.getByTestId("tool-card-status").textContent()).toMatch(/^done in/);
    await expect
      .poll(() => page.getByTestId("message-assistant").last().textContent())
      .toContain("filesystem_write_file returned");
    await browser!.shot("03-finished-after-restart.png");
    expect(readFileSync(join(directory, "sandbox", "survivor.txt"), "utf8")).toBe("approved after a restart");
    expect(
      test.playground.store.getConversation(test.playground.store.listConversations()[0]!.id)!.runState,
    ).toBeNull();
    expect(await page.getByTestId("approval").count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});
