import { startWireFake, type WireFake } from "@junction/wire-fake";
import { afterAll, describe, expect, it } from "vitest";
import { useBrowserSession } from "../../test/browser-session.js";
import { startTestPlayground } from "../../test/test-playground.js";

// The chat toolbar's code mode: a labelled select (off, in a sandbox, in the vendor's runtime),
// the vendor's runtime offered only for a model that runs programs itself, usable from the
// keyboard. Anthropic's provider is set up (a key and a base URL at the wire fake), but no turn
// reaches it: the choice is what is tested.

const session = useBrowserSession("code-mode-choice");
let fake: WireFake | undefined;
afterAll(async () => {
  await fake?.close();
});

describe("the chat's code mode choice", () => {
  it("offers the vendor's runtime only where the model runs programs, says why not beside it, and is set from the keyboard", async () => {
    fake = await startWireFake();
    await session.test.close();
    session.test = await startTestPlayground({
      seedDefaults: false,
      environment: { ANTHROPIC_API_KEY: "sk-ant-test", ANTHROPIC_BASE_URL: fake.url },
    });
    const { page } = session;
    await page.goto(session.test.url);
    await page.getByTestId("nav-chat").click();
    const choice = page.getByLabel("Code mode");
    const vendor = choice.locator('option[value="provider"]');
    const hint = page.getByTestId("code-mode-hint");
    expect(await choice.getAttribute("data-testid")).toBe("code-mode");
    expect(await choice.locator("option").allTextContents()).toEqual([
      "off",
      "in a sandbox (QuickJS)",
      "in the vendor's runtime",
    ]);
    expect(await page.getByTestId("provider-select").inputValue()).toBe("anthropic");
    expect(await page.getByTestId("model-input").inputValue()).toBe("claude-sonnet-5-5");
    await expect.poll(() => vendor.isDisabled()).toBe(false);

    await page.getByTestId("new-chat").click();
    await choice.selectOption("provider");
    const conversationId = () => session.test.playground.store.listConversations()[0]!.id;
    await expect
      .poll(() => session.test.playground.store.getConversation(conversationId())?.codeMode)
      .toBe("provider");
    expect(await hint.textContent()).toBe("");

    // A model that does not run programs: the choice is disabled, and the hint says why and what to choose.
    await page.getByTestId("model-input").fill("claude-haiku-5-5");
    await page.getByTestId("model-input").press("Tab");
    await expect.poll(() => vendor.isDisabled()).toBe(true);
    expect(await hint.textContent()).toContain(
      `anthropic's "claude-haiku-5-5" does not. Choose "sandbox" or "off"`,
    );
    expect(await choice.getAttribute("aria-describedby")).toBe("code-mode-hint");
    expect(await vendor.getAttribute("title")).toContain("does not");
    await session.browser.shot("01-vendor-runtime-not-offered.png");

    // From the keyboard: focused, one up is the sandbox.
    await choice.focus();
    await page.keyboard.press("ArrowUp");
    await expect.poll(() => choice.inputValue()).toBe("sandbox");
    await expect
      .poll(() => session.test.playground.store.getConversation(conversationId())?.codeMode)
      .toBe("sandbox");
    expect(await hint.textContent()).toBe("");
    await expect.poll(() => vendor.isDisabled()).toBe(true);

    // The offline model runs no programs either.
    await page.getByTestId("provider-select").selectOption("offline");
    await expect.poll(() => page.getByTestId("model-input").inputValue()).toBe("offline-scripted");
    await expect.poll(() => vendor.isDisabled()).toBe(true);
    await page.getByTestId("provider-select").selectOption("anthropic");
    await expect.poll(() => vendor.isDisabled()).toBe(false);
    expect(fake.requests).toEqual([]);
    expect(session.pageErrors).toEqual([]);
  });
});
