import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Agent } from "@junction/core";
import { scriptedModel } from "@junction/core/testing";
import { MCP } from "@junction/mcp-client";
import { build } from "tsup";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LaunchedChromium, launchChromium } from "../../test/launch-chromium.js";
import { resolvePackageBin } from "../server/default-servers.js";
import { type TraceSpan, waterfallRows } from "../shared/trace-waterfall.js";
import { TraceStore } from "../trace/trace-store.js";

// The trace waterfall (issue 21): a real run (scripted model, server-everything over stdio, a
// local tool that fails) traced by @junction/otel into the playground's trace store, drawn by
// the page's waterfall in real Chromium. The README's docs/trace-waterfall.png is a copy of its screenshot.
const root = fileURLToPath(new URL("../../", import.meta.url));
const screenshot = join(root, "test-artifacts", "trace-waterfall", "trace-waterfall.png");

let store: TraceStore;
let mcp: MCP;
let browser: LaunchedChromium | undefined;
let bundleDir: string;
const pageErrors: string[] = [];

beforeAll(async () => {
  store = new TraceStore();
  mcp = new MCP(
    store.telemetry.instrumentMCP({
      transport: "stdio",
      command: process.execPath,
      args: [resolvePackageBin("@modelcontextprotocol/server-everything"), "stdio"],
    }),
  );
  await mcp.connect();
  bundleDir = mkdtempSync(join(tmpdir(), "junction-waterfall-"));
  await build({
    entry: { waterfall: join(root, "src/ui/trace-waterfall.ts") },
    outDir: bundleDir,
    format: ["iife"],
    globalName: "JunctionWaterfall",
    platform: "browser",
    target: "es2022",
    silent: true,
    config: false,
  });
  browser = await launchChromium({ viewport: { width: 1100, height: 420 }, pageErrors });
});

afterAll(async () => {
  await browser?.close();
  await mcp?.close();
  await store?.close();
  if (bundleDir) rmSync(bundleDir, { recursive: true, force: true });
});

describe("the trace waterfall", () => {
  it("draws a turn's spans — run, model calls, tool calls, MCP requests — with durations, tokens and errors", async () => {
    const agent = new Agent({
      provider: scriptedModel([
        {
          toolCalls: [
            { id: "e", name: "everything_echo", input: { message: "hello" } },
            { id: "f", name: "flaky", input: {} },
          ],
        },
        { text: "The echo said hello; flaky failed." },
      ]),
      model: "scripted-model",
      mcps: [{ mcp, prefix: "everything" }],
      tools: [
        {
          name: "flaky",
          description: "Always fails",
          inputSchema: { type: "object", properties: {} },
          execute: async () => {
            throw new Error("disk on fire");
          },
        },
      ],
      tracer: store.telemetry.tracer,
    });
    await agent.send("Echo hello and run flaky").final;
    const [traceId] = store.runs();
    const spans: TraceSpan[] = store.trace(traceId!);
    const rows = waterfallRows(spans);
    expect(rows.filter((row) => row.depth <= 1).map((row) => [row.depth, row.name])).toEqual([
      [0, "invoke_agent playground"],
      [1, "tools/list"],
      [1, "chat scripted-model"],
      [1, "execute_tool everything_echo"],
      [1, "execute_tool flaky"],
      [1, "chat scripted-model"],
    ]);
    expect(rows.find((row) => row.name === "execute_tool flaky")?.error).toBe("tool_error");
    expect(rows[0]).toMatchObject({ offsetPercent: 0, widthPercent: 100, tokens: "in 20 · out 10" });

    const page = browser!.page;
    await page.setContent("<!doctype html><html><body></body></html>");
    await page.addStyleTag({ content: readFileSync(join(root, "src/ui/public/styles.css"), "utf8") });
    await page.addScriptTag({ path: join(bundleDir, "waterfall.global.js") });
    await page.evaluate((traceSpans) => {
      const render = (
        window as unknown as { JunctionWaterfall: { traceWaterfall(spans: unknown): HTMLElement } }
      ).JunctionWaterfall.traceWaterfall;
      document.body.style.padding = "16px";
      document.body.append(render(traceSpans));
    }, spans);
    const shown = page.getByTestId("trace-row");
    await expect.poll(() => shown.count()).toBe(rows.length);
    expect(await shown.first().textContent()).toContain("invoke_agent playground");
    expect(await page.getByTestId("trace-error").allInnerTexts()).toEqual(["tool_error"]);
    // The run's bar spans the whole track; every bar lies within its track.
    const widths = await page.$$eval(".waterfall-row", (elements) =>
      elements.map((element) => {
        const track = element.querySelector(".waterfall-track")!.getBoundingClientRect();
        const bar = element.querySelector(".waterfall-bar")!.getBoundingClientRect();
        return { left: Math.round(bar.left - track.left), right: Math.round(track.right - bar.right) };
      }),
    );
    expect(widths[0]).toEqual({ left: 0, right: 0 });
    for (const { left, right } of widths) expect(Math.min(left, right)).toBeGreaterThanOrEqual(-1);
    await page.screenshot({ path: screenshot, fullPage: true });
    expect(pageErrors).toEqual([]);
  });
});
