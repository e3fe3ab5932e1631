import { describe, expect, it } from "vitest";
import { useBrowserSession } from "../../test/browser-session.js";
import { startTestPlayground } from "../../test/test-playground.js";

// Issue 21: each chat turn's trace, from the same OpenTelemetry spans @junction/otel emits, as a
// waterfall under the turn: run → model calls → tool calls → MCP requests, with durations.

const session = useBrowserSession("chat-trace");

describe("a chat turn's trace on the page", () => {
  it("shows the run, its model calls, the MCP tool call and the MCP requests as a waterfall", async () => {
    await session.page.goto(session.test.url);
    await session.page.getByTestId("nav-chat").click();
    await session.page.getByTestId("composer").fill("please add 2 and 3");
    await session.page.getByTestId("send").click();
    const toggle = session.page.getByTestId("trace");
    await toggle.waitFor();
    await toggle.locator("summary").click();
    const rows = session.page.getByTestId("trace-row");
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(5);
    const names = await rows.locator(".waterfall-name").allInnerTexts();
    expect(names[0]).toContain("invoke_agent playground");
    expect(names.filter((name) => name.startsWith("chat offline-scripted"))).toHaveLength(2);
    // The tools/call request folds into its execute_tool span, as the MCP conventions say; the
    // other MCP requests (tools/list) are spans of their own.
    expect(names).toContain("execute_tool everything_get-sum · MCP over pipe");
    expect(names.filter((name) => name.startsWith("tools/list"))).not.toHaveLength(0);
    // The turn's context bar: how full the model's window was on its last request.
    const legend = await session.page.getByTestId("context-legend").last().textContent();
    expect(legend).toMatch(/^tools \S+ · history \S+ · results \S+ · free \S+ of 128k tokens$/);
    const width = (part: string) =>
      session.page
        .getByTestId(`context-${part}`)
        .last()
        .evaluate((element) => element.getBoundingClientRect().width);
    expect(await width("tools")).toBeGreaterThan(0);
    expect(await width("free")).toBeGreaterThan(await width("tools"));
    await session.browser.shot("chat-trace.png");
    expect(session.pageErrors).toEqual([]);
  });

  // Issue 26, item 9: the trace id went to the page live only; a reload or a restart lost it.
  it("shows the turn's trace again after a reload and after a restart of the playground on the same data", async () => {
    const page = session.page;
    await page.goto(session.test.url);
    await page.getByTestId("nav-chat").click();
    await page.getByTestId("new-chat").click();
    await page.getByTestId("composer").fill("please add 4 and 5");
    await page.getByTestId("send").click();
    /** Opens the conversation's trace and reads its rows' names. */
    const traceNames = async () => {
      const toggle = page.getByTestId("trace");
      await toggle.waitFor();
      expect(await toggle.count()).toBe(1);
      expect(await toggle.locator("summary").textContent()).toBe("Trace of this run");
      await toggle.locator("summary").click();
      const rows = page.getByTestId("trace-row");
      // The run, its two model calls and its tool call (the tools were listed on the first turn).
      await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(4);
      return rows.locator(".waterfall-name").allInnerTexts();
    };
    const openConversation = async () => {
      await page.getByTestId("nav-chat").click();
      await page.getByTestId("conversation-item").filter({ hasText: "please add 4 and 5" }).click();
      await page.getByTestId("message-assistant").last().waitFor();
    };
    const live = await traceNames();
    expect(live[0]).toContain("invoke_agent playground");
    expect(live).toContain("execute_tool everything_get-sum · MCP over pipe");

    await page.reload();
    await openConversation();
    expect(await traceNames()).toEqual(live);

    // The playground goes away and comes back on the same data folder: the spans come from the store.
    const directory = session.test.directory;
    await session.test.close({ keepDirectory: true });
    session.test = await startTestPlayground({ directory });
    await page.goto(session.test.url);
    await openConversation();
    expect(await traceNames()).toEqual(live);
    await session.browser.shot("trace-after-restart.png");
    expect(session.pageErrors).toEqual([]);
  });
});
