import { describe, expect, it } from "vitest";
import { useBrowserSession } from "../../test/browser-session.js";

// Issue 20: a conversation carries an output schema, edited on the page; each answer then ends
// with the validated object, shown as a collapsible tree beside the text.

const session = useBrowserSession("structured-output");

describe("structured output on the chat page", () => {
  it("refuses a schema that is not an object, saves one that is, and shows the answer as a tree", async () => {
    await session.page.goto(session.test.url);
    await session.page.getByTestId("nav-chat").click();
    await session.page.getByTestId("output-schema").click();
    const editor = session.page.getByTestId("output-schema-editor");
    await editor.fill('{ "type": "array" }');
    await session.page.getByTestId("output-schema-save").click();
    await expect
      .poll(() => session.page.locator("dialog .form-message.error").textContent())
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
    await session.page.getByTestId("output-schema-save").click();
    await expect.poll(() => session.page.locator("dialog").count()).toBe(0);

    await session.page.getByTestId("composer").fill("please add 2 and 3");
    await session.page.getByTestId("send").click();
    const answer = session.page.getByTestId("message-output");
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
    await session.browser.shot("structured-answer.png");
    expect(session.pageErrors).toEqual([]);
  });
});
