import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LaunchedChromium, launchChromium } from "../testing/launch-chromium.js";
import { startTestPlayground, type TestPlayground } from "../testing/test-playground.js";

// Issue 20: a conversation carries an output schema, edited on the page; each answer then ends
// with the validated object, shown as a collapsible tree beside the text.
const artifacts = fileURLToPath(new URL("../../test-artifacts/structured-output/", import.meta.url));

let test: TestPlayground;
let page: Page;
let browser: LaunchedChromium | undefined;
const pageErrors: string[] = [];

beforeAll(async () => {
  test = await startTestPlayground();
  browser = await launchChromium({
    viewport: { width: 1280, height: 900 },
    pageErrors,
    screenshots: artifacts,
  });
  page = browser.page;
});

afterAll(async () => {
  await browser?.close();
  await test?.close();
});

describe("structured output on the chat page", () => {
  it("refuses a schema that is not an object, saves one that is, and shows the answer as a tree", async () => {
    await page.goto(test.url);
    await page.getByTestId("nav-chat").click();
    await page.getByTestId("output-schema").click();
    const editor = page.getByTestId("output-schema-editor");
    await editor.fill('{ "type": "array" }');
    await page.getByTestId("output-schema-save").click();
    await expect
      .poll(() => page.locator("dialog .form-message.error").textContent())
      .toBe('The output schema must describe an object: give it "type": "object" and its "properties".');
    await editor.fill(
      JSON.stringify({
        type: "object",
        properties: {
          summary: { type: "string" },
          result: { type: "number" },
          details: { type: "object", properties: { tool: { type: "string", enum: ["get-sum"] } } },
        },
        required: ["summary", "result"],
      }),
    );
    await page.getByTestId("output-schema-save").click();
    await expect.poll(() => page.locator("dialog").count()).toBe(0);

    await page.getByTestId("composer").fill("please add 2 and 3");
    await page.getByTestId("send").click();
    const answer = page.getByTestId("message-output");
    await answer.waitFor();
    const entries = await answer.getByTestId("json-entry").allInnerTexts();
    expect(entries.map((entry) => entry.split("\n")[0])).toEqual([
      'summary: "Done. everything_get-sum returned: \\"The sum of 2 and 3 is 5\\"."',
      "result: 5",
      "details: ",
      'tool: "get-sum"',
    ]);
    // The tree folds: closing the top node hides its entries.
    await answer.getByTestId("json-node").first().locator("summary").first().click();
    expect(await answer.getByTestId("json-entry").first().isVisible()).toBe(false);
    await answer.getByTestId("json-node").first().locator("summary").first().click();
    await browser!.shot("structured-answer.png");
    expect(pageErrors).toEqual([]);
  });
});
