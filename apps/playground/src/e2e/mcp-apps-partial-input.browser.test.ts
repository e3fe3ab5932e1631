import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import type { FrameLocator } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sse } from "../../test/fake-vendor-endpoint.js";
import { type LaunchedChromium, launchChromium } from "../../test/launch-chromium.js";
import { startTestPlayground, type TestPlayground } from "../../test/test-playground.js";

// ui/notifications/tool-input-partial (MCP Apps 2026-01-26) in the chat: the model streams a
// call's arguments piece by piece (an OpenAI-compatible endpoint, read by the real openai SDK
// inside provider-chatcompletions), and the app's view, built on the published ext-apps 2.x
// `App` class, opens while they stream. The endpoint sends each next piece only once the view
// has shown the one before, so the test waits on what the view got, never on time.
const sdkServer = fileURLToPath(new URL("../__fixtures__/mcp-apps-sdk-server.mjs", import.meta.url));
const fullArguments = { note: "streaming in pieces" };
/** The argument JSON as the model writes it: the first piece alone does not stream (core waits for a second). */
const pieces = ["{", '"note":"stre', "aming in", ' pieces"}'];

/** A step the endpoint waits at, released by the test once the view has caught up. */
interface Gate {
  promise: Promise<void>;
  release(): void;
}
function gate(): Gate {
  let release!: () => void;
  const promise = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { promise, release };
}
/** Before the third piece, and before the last. */
const gates = [gate(), gate()];

let test: TestPlayground;
let model: Server;
let browser: LaunchedChromium | undefined;
const pageErrors: string[] = [];

/** Streams the tool call in pieces, waiting at each gate; after the tool's result, answers in text. */
async function startGatedModel(): Promise<string> {
  model = createServer(async (request, response) => {
    let text = "";
    for await (const part of request) text += part;
    const body = JSON.parse(text);
    const chunk = (delta: unknown, finish: string | null = null) =>
      sse({
        id: "chatcmpl-gated",
        object: "chat.completion.chunk",
        created: 1,
        model: body.model,
        choices: [{ index: 0, delta, finish_reason: finish }],
      });
    response.writeHead(200, { "content-type": "text/event-stream" });
    if (body.messages.some((message: { role: string }) => message.role === "tool")) {
      response.write(chunk({ role: "assistant", content: "The app showed it." }));
      response.end(`${chunk({}, "stop")}data: [DONE]\n\n`);
      return;
    }
    const [first, ...rest] = pieces;
    response.write(
      chunk({
        role: "assistant",
        content: null,
        tool_calls: [
          {
            index: 0,
            id: "call_streamed",
            type: "function",
            function: { name: "sdk_show-lifecycle", arguments: first },
          },
        ],
      }),
    );
    for (const [index, piece] of rest.entries()) {
      if (index > 0) await gates[index - 1]!.promise;
      response.write(chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] }));
    }
    response.end(`${chunk({}, "tool_calls")}data: [DONE]\n\n`);
  });
  await new Promise<void>((resolve) => model.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;
}

const report = async (frame: FrameLocator): Promise<Record<string, any>> =>
  JSON.parse((await frame.locator("#report").textContent()) ?? "{}");

/** Whether `partial` could still become `full`: its keys are `full`'s, its strings prefixes of `full`'s. */
function prefixConsistent(partial: Record<string, unknown>, full: Record<string, unknown>): boolean {
  return Object.entries(partial).every(([key, value]) => {
    const whole = full[key];
    return typeof value === "string" ? typeof whole === "string" && whole.startsWith(value) : value === whole;
  });
}

beforeAll(async () => {
  const url = await startGatedModel();
  test = await startTestPlayground({
    seedDefaults: false,
    environment: { PATH: process.env.PATH, OPENAI_COMPATIBLE_BASE_URL: url },
  });
  const added = await test.api("POST", "/api/servers", {
    name: "sdk",
    config: { command: process.execPath, args: [sdkServer] },
  });
  expect(added.body.status).toBe("connected");
  browser = await launchChromium({
    viewport: { width: 1280, height: 900 },
    pageErrors,
    thirdPartyStorage: true,
  });
});

afterAll(async () => {
  for (const waiting of gates) waiting.release();
  await browser?.close();
  await test?.close();
  await new Promise<void>((resolve) => {
    model?.closeAllConnections();
    if (model) model.close(() => resolve());
    else resolve();
  });
});

describe("MCP Apps in the chat: tool-input-partial while the model streams a call's arguments", () => {
  it("opens the view while the arguments stream, sends their partials, then the input and the result, in one iframe", async () => {
    const page = browser!.page;
    await page.goto(test.url);
    await page.getByTestId("nav-chat").click();
    await page.getByTestId("new-chat").click();
    await page.getByTestId("provider-select").selectOption("openai-compatible");
    await page.getByTestId("composer").fill("show the lifecycle app");
    await page.getByTestId("send").click();

    const card = page.getByTestId("tool-card").last();
    const frameSelector = '[data-testid="tool-card"] [data-testid="mcp-app-frame"]';
    const frame = page.frameLocator(frameSelector).first().frameLocator("iframe");
    // The view opened while the model still writes the arguments, and the App's
    // ontoolinputpartial got what had arrived.
    await expect.poll(async () => (await report(frame)).partials).toEqual([{ note: "stre" }]);
    expect(await card.getByTestId("tool-card-status").textContent()).toBe(
      "the model is writing the arguments…",
    );
    expect((await report(frame)).input).toBeUndefined();
    // The elements the rest of the call must keep: the card, the proxy frame, the view's frame.
    const elements = await page.evaluate((selector) => {
      const proxy = document.querySelector<HTMLIFrameElement>(selector)!;
      const held = window as unknown as { held: Element[] };
      held.held = [proxy.closest('[data-testid="tool-card"]')!, proxy];
      return held.held.length;
    }, frameSelector);
    expect(elements).toBe(2);
    const viewFrame = await page.locator(frameSelector).contentFrame().locator("iframe").elementHandle();

    gates[0]!.release();
    await expect.poll(async () => (await report(frame)).partials?.at(-1)).toEqual({ note: "streaming in" });
    gates[1]!.release();
    await expect.poll(() => card.getByTestId("tool-card-status").textContent()).toMatch(/^done in \d+ ms$/);
    await expect.poll(async () => (await report(frame)).result).toBe("lifecycle: streaming in pieces");

    const found = await report(frame);
    expect(found.input).toEqual(fullArguments);
    expect(found.partials.length).toBeGreaterThanOrEqual(2);
    for (const partial of found.partials)
      expect(prefixConsistent(partial, fullArguments), JSON.stringify(partial)).toBe(true);
    // Every partial before the input, the input before the result, each once.
    expect(found.partialsBeforeInput).toBe(found.partials.length);
    expect(found.order).toEqual([
      ...found.partials.map(() => "tool-input-partial"),
      "tool-input",
      "tool-result",
    ]);
    // toolInfo.id is the call's id, known from its first piece.
    expect(found.toolInfo).toEqual({ id: "call_streamed", name: "show-lifecycle" });
    // One view throughout: the same card, proxy frame and view frame, still in the page (the
    // view's document too, which still holds what it got first).
    expect(
      await page.evaluate((selector) => {
        const [heldCard, heldProxy] = (window as unknown as { held: Element[] }).held;
        const proxy = document.querySelector(selector);
        return {
          sameProxy: proxy === heldProxy,
          sameCard: proxy?.closest('[data-testid="tool-card"]') === heldCard,
          connected: heldProxy!.isConnected,
          frames: document.querySelectorAll(selector).length,
        };
      }, frameSelector),
    ).toEqual({ sameProxy: true, sameCard: true, connected: true, frames: 1 });
    expect(
      await viewFrame!.evaluate(
        (element) => element.isConnected && element === element.ownerDocument.querySelector("iframe"),
      ),
    ).toBe(true);
    expect(found.partials[0]).toEqual({ note: "stre" });
    await expect.poll(() => page.getByTestId("send").isEnabled()).toBe(true);
    // An app that declares no permissions gets no browser feature, in either frame.
    expect(await page.locator(frameSelector).getAttribute("allow")).toBe("");
    expect(await viewFrame!.getAttribute("allow")).toBe("");
    expect(pageErrors).toEqual([]);
  });
});

describe("MCP Apps permissions (_meta.ui.permissions)", () => {
  it("gives both frames the declared features (camera, clipboard-write) and only those", async () => {
    const page = browser!.page;
    await page.goto(test.url);
    await expect.poll(() => page.getByTestId("server-status-sdk").textContent()).toBe("connected");
    await page.getByTestId("server-sdk").click();
    await page.getByTestId("tool-show-permissions").click();
    await page.getByTestId("run-tool").click();
    const frameSelector = '[data-testid="tool-output"] [data-testid="mcp-app-frame"]';
    const frame = page.frameLocator(frameSelector).frameLocator("iframe");
    // What the view's document may use, as the browser says.
    await expect.poll(async () => (await report(frame)).camera).toBe(true);
    expect(await report(frame)).toEqual({
      camera: true,
      microphone: false,
      geolocation: false,
      clipboardWrite: true,
    });
    expect(await page.locator(frameSelector).getAttribute("allow")).toBe("camera; clipboard-write");
    expect(await page.frameLocator(frameSelector).locator("iframe").getAttribute("allow")).toBe(
      "camera; clipboard-write",
    );
    expect(pageErrors).toEqual([]);
  });
});
