import { describe, expect, it } from "vitest";
import { useBrowserSession } from "../testing/browser-session.js";

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
});
