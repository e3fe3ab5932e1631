import { describe, expect, it } from "vitest";
import { useBrowserSession } from "../../test/browser-session.js";

// Issue 22: a server's tools can be left out of every request until the model searches for them
// (core's `defer` and `search_tools`). The switch is on the server's page; the chat shows the
// search and the call of the tool it found.

const session = useBrowserSession("tool-search");

describe("deferred tools and the tool search on the page", () => {
  it("defers a server's tools from its page; the model searches, finds get-sum and calls it", async () => {
    const { page } = session;
    await page.goto(session.test.url);
    await page.getByTestId("server-everything").click();
    const option = page.getByTestId("defer-tools");
    expect(await option.isChecked()).toBe(false);
    await option.check();
    await expect.poll(() => option.isEnabled()).toBe(true);
    await session.browser.shot("defer-tools-option.png");

    await page.getByTestId("nav-chat").click();
    await page.getByTestId("composer").fill("please add 2 and 3");
    await page.getByTestId("send").click();
    await expect
      .poll(() => page.getByTestId("message-assistant").last().textContent())
      .toBe('assistantDone. everything_get-sum returned: "The sum of 2 and 3 is 5".');
    const cards = page.getByTestId("tool-card");
    expect(await cards.getByTestId("tool-card-name").allInnerTexts()).toEqual([
      "search_tools",
      "everything_get-sum",
    ]);
    expect(await cards.first().textContent()).toMatch(
      /Loaded \d tool\(s\), best first; call them from your next step:/,
    );
    expect(await cards.first().textContent()).toContain(
      "- everything_get-sum: Returns the sum of two numbers",
    );
    await session.browser.shot("tool-search-chat.png");

    // The choice is kept with the server: a reload shows it, and turning it off sends the tools again.
    await page.reload();
    await page.getByTestId("nav-servers").click();
    await page.getByTestId("server-everything").click();
    expect(await page.getByTestId("defer-tools").isChecked()).toBe(true);
    await page.getByTestId("defer-tools").uncheck();
    await expect.poll(() => page.getByTestId("defer-tools").isEnabled()).toBe(true);
    expect(session.test.playground.store.listServers().map((server) => server.deferTools)).toEqual([
      false,
      false,
      false,
    ]);
    expect(session.pageErrors).toEqual([]);
  });
});
