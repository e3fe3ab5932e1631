import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useBrowserSession } from "../../test/browser-session.js";
import { startTestPlayground } from "../../test/test-playground.js";

// Issue 19: a run stopped for an approval is data in the playground's SQLite store, so the
// question outlives the playground's process and the answer, after a restart, finishes the run.

const session = useBrowserSession("run-state");

describe("a pending approval and a restart of the playground", () => {
  it("shows the waiting call again after the restart, and approving it from the page finishes the run", async () => {
    await session.page.goto(session.test.url);
    await session.page.getByTestId("nav-chat").click();
    await session.page
      .getByTestId("composer")
      .fill('write a file survivor.txt with "approved after a restart"');
    await session.page.getByTestId("send").click();
    const approval = session.page.getByTestId("approval");
    await approval.waitFor();
    expect(await approval.textContent()).toContain(
      "Allow filesystem_write_file to run with these arguments?",
    );
    await session.browser.shot("01-waiting-before-restart.png");

    // The playground goes away with the question unanswered, and comes back on the same data.
    const directory = session.test.directory;
    await session.test.close({ keepDirectory: true });
    session.test = await startTestPlayground({ directory });
    await session.page.goto(session.test.url);
    await session.page.getByTestId("nav-chat").click();
    await session.page.getByTestId("conversation-item").first().click();
    const again = session.page.getByTestId("approval");
    await again.waitFor();
    expect(JSON.parse((await again.getByTestId("approval-arguments").textContent()) ?? "")).toMatchObject({
      content: "approved after a restart",
    });
    await session.browser.shot("02-waiting-after-restart.png");
    await again.getByTestId("approve").click();

    const card = session.page.getByTestId("tool-card").last();
    await expect.poll(() => card.getByTestId("tool-card-status").textContent()).toMatch(/^done in/);
    await expect
      .poll(() => session.page.getByTestId("message-assistant").last().textContent())
      .toContain("filesystem_write_file returned");
    await session.browser.shot("03-finished-after-restart.png");
    expect(readFileSync(join(directory, "sandbox", "survivor.txt"), "utf8")).toBe("approved after a restart");
    expect(
      session.test.playground.store.getConversation(session.test.playground.store.listConversations()[0]!.id)!
        .runState,
    ).toBeNull();
    expect(await session.page.getByTestId("approval").count()).toBe(0);
    expect(session.pageErrors).toEqual([]);
  });
});
