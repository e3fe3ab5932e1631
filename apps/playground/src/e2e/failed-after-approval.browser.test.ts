import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startWireFake, type WireFake } from "@junction/wire-fake";
import { afterAll, describe, expect, it } from "vitest";
import { useBrowserSession } from "../../test/browser-session.js";
import { scriptedChunks } from "../../test/scripted-chat-completions.js";
import { startTestPlayground } from "../../test/test-playground.js";

// Issue 27, problem 3, on the page: after an approved destructive call ran and the model's next
// request failed, the approval card stayed and answering it again ran the call twice. The card
// goes the moment the call has run, and stays gone after a reload.

const countingServer = fileURLToPath(new URL("../__fixtures__/counting-server.mjs", import.meta.url));
const session = useBrowserSession("failed-after-approval");
let model: WireFake | undefined;
afterAll(async () => {
  await model?.close();
});

describe("an approved call whose next model request fails, on the page", () => {
  it("drops the card once the call has run, refuses a stale tab's answer, and shows it done with no card after a reload", async () => {
    model = await startWireFake();
    model.enqueue(
      (request) => ({
        chunks: scriptedChunks(
          { toolCalls: [{ id: "call_delete", name: "notes_delete_note", arguments: { name: "groceries" } }] },
          request.body.model,
        ),
      }),
      {
        status: 400,
        json: { error: { message: "Bad request from the fake.", type: "invalid_request_error" } },
      },
    );
    // The session's playground, replaced by one with the counting server and the fake model.
    await session.test.close();
    session.test = await startTestPlayground({
      seedDefaults: false,
      environment: { PATH: process.env.PATH, OPENAI_COMPATIBLE_BASE_URL: `${model.url}/v1` },
    });
    const log = join(session.test.directory, "deleted.log");
    const added = await session.test.api("POST", "/api/servers", {
      name: "notes",
      config: { command: process.execPath, args: [countingServer, "--log", log] },
    });
    expect(added.body.status).toBe("connected");

    const { page } = session;
    await page.goto(session.test.url);
    await page.getByTestId("nav-chat").click();
    await page.getByTestId("new-chat").click();
    await page.getByTestId("provider-select").selectOption("openai-compatible");
    await page.getByTestId("composer").fill("delete my groceries note");
    await page.getByTestId("send").click();
    const approval = page.getByTestId("approval");
    await approval.waitFor();
    expect(JSON.parse((await approval.getByTestId("approval-arguments").textContent()) ?? "")).toEqual({
      name: "groceries",
    });
    await session.browser.shot("01-waiting.png");
    // A second tab on the same conversation, opened while the call waits: it still shows the card.
    const staleTab = await session.browser.context.newPage();
    staleTab.on("pageerror", (error) => session.pageErrors.push(error.message));
    await staleTab.goto(session.test.url);
    await staleTab.getByTestId("nav-chat").click();
    await staleTab.getByTestId("conversation-item").first().click();
    await staleTab.getByTestId("approval").waitFor();
    await approval.getByTestId("approve").click();

    const card = page.getByTestId("tool-card").last();
    await expect.poll(() => card.getByTestId("tool-card-status").textContent()).toMatch(/^done in/);
    await expect.poll(() => page.getByTestId("send").isDisabled()).toBe(false);
    await expect
      .poll(() => page.getByTestId("transcript").getByTestId("notice").last().textContent())
      .toContain("Bad request from the fake.");
    expect(await page.getByTestId("approval").count()).toBe(0);
    await session.browser.shot("02-ran-then-failed.png");

    // The stale tab's Approve is refused, saying why; the tab then shows the call as it is: done.
    await staleTab.getByTestId("approval").getByTestId("approve").click();
    await expect
      .poll(() => staleTab.getByTestId("transcript").getByTestId("notice").last().textContent())
      .toMatch(/^No approval is pending for call call_delete of conversation /);
    await expect
      .poll(() => staleTab.getByTestId("tool-card").last().getByTestId("tool-card-status").textContent())
      .toMatch(/^done in/);
    expect(await staleTab.getByTestId("approval").count()).toBe(0);
    await staleTab.screenshot({
      path: fileURLToPath(
        new URL("../../test-artifacts/failed-after-approval/03-stale-tab-refused.png", import.meta.url),
      ),
      fullPage: true,
    });
    await staleTab.close();
    expect(readFileSync(log, "utf8")).toBe('{"name":"groceries"}\n');

    // After a reload, the stored transcript says the same: done, no card to answer again.
    await page.reload();
    await page.getByTestId("nav-chat").click();
    await page.getByTestId("conversation-item").first().click();
    const reloaded = page.getByTestId("tool-card").last();
    await expect.poll(() => reloaded.getByTestId("tool-card-status").textContent()).toMatch(/^done in/);
    expect(await page.getByTestId("approval").count()).toBe(0);
    await session.browser.shot("04-after-reload.png");
    expect(readFileSync(log, "utf8")).toBe('{"name":"groceries"}\n');
    expect(session.pageErrors).toEqual([]);
  });
});
