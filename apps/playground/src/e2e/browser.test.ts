import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LaunchedChromium, launchChromium } from "../../test/launch-chromium.js";
import { startTestPlayground, type TestPlayground } from "../../test/test-playground.js";

const artifacts = fileURLToPath(new URL("../../test-artifacts/", import.meta.url));
const crashingServer = fileURLToPath(new URL("../__fixtures__/crashing-server.mjs", import.meta.url));
const hostileServer = fileURLToPath(new URL("../__fixtures__/hostile-server.mjs", import.meta.url));

let test: TestPlayground;
let page: Page;
let browser: LaunchedChromium | undefined;
const pageErrors: string[] = [];

const shot = (name: string) => page.screenshot({ path: join(artifacts, name), fullPage: true });

beforeAll(async () => {
  // Only this file's screenshots: other browser tests keep theirs in folders of their own.
  mkdirSync(artifacts, { recursive: true });
  for (const file of readdirSync(artifacts)) if (file.endsWith(".png")) rmSync(join(artifacts, file));
  test = await startTestPlayground();
  browser = await launchChromium({ viewport: { width: 1280, height: 860 }, pageErrors });
  page = browser.page;
  page.on("dialog", (dialog) => void dialog.accept());
});

afterAll(async () => {
  await browser?.close();
  await test?.close();
});

describe("the playground in a real browser", () => {
  it("opens with the default servers connected", async () => {
    await page.goto(test.url);
    for (const name of ["everything", "filesystem", "memory"]) {
      await expect.poll(() => page.getByTestId(`server-status-${name}`).textContent()).toBe("connected");
    }
    await page.getByTestId("tool-list").waitFor();
    await shot("01-servers.png");
    expect(await page.getByTestId("tool-list").locator("button").count()).toBeGreaterThan(10);
  });

  it("calls get-tiny-image in the inspector and renders the image", async () => {
    await page.getByTestId("server-everything").click();
    await page.getByTestId("tool-get-tiny-image").click();
    await page.getByTestId("run-tool").click();
    const image = page.getByTestId("tool-output").getByTestId("content-image");
    await image.waitFor();
    const rendered = await image.evaluate((element: HTMLImageElement) => ({
      src: element.src.slice(0, 22),
      width: element.naturalWidth,
      height: element.naturalHeight,
      complete: element.complete,
    }));
    expect(rendered).toEqual({ src: "data:image/png;base64,", width: 20, height: 20, complete: true });
    expect(await page.getByTestId("tool-output").getByTestId("content-text").first().textContent()).toBe(
      "Here's the image you requested:",
    );
    await shot("02-inspector-tiny-image.png");
  });

  it("explains a tool form that fails the schema", async () => {
    await page.getByTestId("tool-get-sum").click();
    await page.getByTestId("field-b").fill("3");
    await page.getByTestId("run-tool").click();
    await expect
      .poll(() => page.getByTestId("tool-call-error").textContent())
      .toBe("The arguments for get-sum do not match its input schema: a is required.");
    await page.getByTestId("field-a").fill("4");
    await page.getByTestId("run-tool").click();
    await expect
      .poll(() => page.getByTestId("tool-output").getByTestId("content-text").textContent())
      .toBe("The sum of 4 and 3 is 7.");
  });

  it("explains a broken server config in the form, and a server that dies at start with its stderr", async () => {
    await page.getByTestId("add-server").click();
    const editor = page.getByTestId("server-editor");
    await editor.getByTestId("server-name-input").fill("broken");
    await editor.getByTestId("server-config-input").fill('{ "args": ["x"] }');
    await editor.getByTestId("save-server").click();
    await expect
      .poll(async () => (await editor.getByTestId("server-form-message").textContent()) ?? "")
      .toContain("broken");
    await editor.getByTestId("server-config-input").fill("{ not json");
    await editor.getByTestId("save-server").click();
    await expect
      .poll(async () => (await editor.getByTestId("server-form-message").textContent()) ?? "")
      .toMatch(/^The configuration is not valid JSON: /);
    const script = "console.error('cannot open /nowhere/db.sqlite'); process.exit(2)";
    await editor
      .getByTestId("server-config-input")
      .fill(JSON.stringify({ command: process.execPath, args: ["-e", script] }));
    await editor.getByTestId("save-server").click();
    await expect.poll(() => page.getByTestId("server-status-broken").textContent()).toBe("error");
    const error = page.getByTestId("server-error");
    await expect
      .poll(async () => (await error.textContent()) ?? "")
      .toContain("cannot open /nowhere/db.sqlite");
    await shot("03-server-failed-to-start.png");
    await page.getByTestId("remove-server").click();
    await expect.poll(() => page.getByTestId("server-broken").count()).toBe(0);
  });

  it("shows the config loader's warnings in the add-server form and on the server's page", async () => {
    await page.getByTestId("add-server").click();
    const editor = page.getByTestId("server-editor");
    await editor.getByTestId("server-name-input").fill("typo");
    await editor
      .getByTestId("server-config-input")
      .fill(JSON.stringify({ command: process.execPath, args: [crashingServer], arg: ["--verbose"] }));
    await editor.getByTestId("save-server").click();
    const warning = 'MCP server "typo": unknown key "arg" is ignored (did you mean "args"?)';
    // Saved and connected, and the dialog stays open to say what was ignored.
    await expect
      .poll(async () => (await editor.getByTestId("server-form-message").textContent()) ?? "")
      .toBe(`Saved, with warnings:${warning}`);
    expect(await editor.getByTestId("save-server").isVisible()).toBe(false);
    await shot("03b-server-config-warning.png");
    await editor.getByTestId("close-server-editor").click();
    await expect.poll(() => editor.count()).toBe(0);
    await expect.poll(() => page.getByTestId("server-status-typo").textContent()).toBe("connected");
    await page.getByTestId("server-typo").click();
    await expect
      .poll(async () => (await page.getByTestId("server-warnings").textContent()) ?? "")
      .toBe(`Configuration warnings${warning}`);
    await page.getByTestId("remove-server").click();
    await expect.poll(() => page.getByTestId("server-typo").count()).toBe(0);
  });

  it("shows hostile server output as inert text: no markup, no javascript: links, no SVG", async () => {
    const added = await test.api("POST", "/api/servers", {
      name: "hostile",
      config: { command: process.execPath, args: [crashingServer] },
    });
    expect(added.body.status).toBe("connected");
    await page.getByTestId("server-hostile").click();
    await page.getByTestId("tool-hostile").click();
    await page.getByTestId("run-tool").click();
    const output = page.getByTestId("tool-output");
    await output.getByTestId("content-text").waitFor();
    expect(await output.getByTestId("content-text").textContent()).toBe(
      '<img src="x" onerror="window.__pwned = true"><script>window.__pwned = true</script>',
    );
    expect(await output.locator("img, script").count()).toBe(0);
    const links = await output
      .locator("a")
      .evaluateAll((anchors) => anchors.map((a) => (a as HTMLAnchorElement).href));
    expect(links).toEqual(["https://example.com/doc"]);
    expect(await output.getByText("a javascript link").evaluate((element) => element.tagName)).toBe("SPAN");
    expect(
      await output.getByText("An image of type image/svg+xml that cannot be shown safely.").count(),
    ).toBe(1);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: boolean }).__pwned)).toBeUndefined();
    await shot("04-inspector-hostile-output-inert.png");
  });

  it("cuts a result too large or too deep to show whole, with the note as text", async () => {
    const added = await test.api("POST", "/api/servers", {
      name: "oversized",
      config: { command: process.execPath, args: [hostileServer] },
    });
    expect(added.body.status).toBe("connected");
    await page.getByTestId("server-oversized").click();
    await page.getByTestId("tool-huge").click();
    await page.getByTestId("field-megabytes").fill("3");
    await page.getByTestId("run-tool").click();
    const output = page.getByTestId("tool-output");
    const note = output.getByTestId("truncation-note");
    await note.waitFor();
    expect(await note.textContent()).toBe(
      "This result was too large or too deep to show whole (limits 2.0 MB, 64 levels): a text of 3.0 MB was cut to its first 2.0 MB.",
    );
    expect(await note.evaluate((element) => element.children.length)).toBe(0);
    expect(await output.getByTestId("content-text").evaluate((element) => element.textContent?.length)).toBe(
      2 * 1024 * 1024,
    );
    await page.getByTestId("tool-deep").click();
    await page.getByTestId("field-levels").fill("3000");
    await page.getByTestId("run-tool").click();
    await expect
      .poll(async () => (await output.getByTestId("truncation-note").textContent()) ?? "")
      .toBe(
        "This result was too large or too deep to show whole (limits 2.0 MB, 64 levels): structured content nested deeper than 64 levels was cut.",
      );
    expect(await output.getByTestId("structured-content").textContent()).toContain(
      "[cut: nested deeper than 64 levels]",
    );
    expect(await page.evaluate(() => (window as unknown as { __pwned?: boolean }).__pwned)).toBeUndefined();
    await shot("05a-inspector-truncation-note.png");
    // A flood of log messages reaches the open log in a few batches, the skipped ones counted.
    await page.locator(".server-detail").getByText("Log messages").click();
    await page.getByTestId("server-log").getByText("No log messages yet.").waitFor();
    const flood = await test.api("POST", `/api/servers/${added.body.id}/tools/call`, {
      name: "flood",
      arguments: { count: 3000 },
    });
    expect(flood.body.result.content).toEqual([{ type: "text", text: "flooded" }]);
    const log = page.getByTestId("server-log");
    await expect.poll(() => log.getByText("flood 2999").count()).toBe(1);
    const skipped = (await log.getByTestId("log-skipped").allTextContents()).map((text) =>
      Number(/^(\d+) messages skipped \(the server sent too many\)$/.exec(text)?.[1]),
    );
    const shown = await log.locator(".log-line:not([data-testid=log-skipped])").count();
    expect(skipped.length).toBeGreaterThan(0);
    expect(shown).toBeLessThanOrEqual(500);
    expect(skipped.reduce((sum, count) => sum + count, 0) + shown).toBe(3000);
    expect((await test.api("DELETE", `/api/servers/${added.body.id}`)).status).toBe(200);
    await page.getByTestId("server-hostile").click();
  });

  it("plays audio, shows embedded resources and structured content, and marks errors", async () => {
    await page.getByTestId("tool-rich").click();
    await page.getByTestId("run-tool").click();
    const output = page.getByTestId("tool-output");
    const audio = output.getByTestId("content-audio");
    await audio.waitFor();
    expect(
      await audio.evaluate((element: HTMLAudioElement) => [element.controls, element.src.slice(0, 27)]),
    ).toEqual([true, "data:audio/wav;base64,UklGR"]);
    expect(await output.getByTestId("content-resource").textContent()).toBe(
      "embedded resource: test://notes/1 · text/plainembedded notes",
    );
    expect(JSON.parse((await output.getByTestId("structured-content").textContent()) ?? "")).toEqual({
      answer: 42,
      items: ["a", "b"],
    });
    await shot("05-inspector-rich-result.png");
    await page.getByTestId("tool-fails").click();
    await page.getByTestId("run-tool").click();
    await expect
      .poll(() => output.getByTestId("tool-error").textContent())
      .toBe("⚠ The tool reported an error");
    expect(await output.getByTestId("content-text").textContent()).toBe("the disk is on fire");
  });

  it("answers an elicitation request with a form", async () => {
    await page.getByTestId("server-everything").click();
    await page.getByTestId("tool-trigger-elicitation-request").click();
    await page.getByTestId("run-tool").click();
    const dialog = page.getByTestId("elicitation");
    await dialog.waitFor();
    await dialog.getByTestId("field-name").fill("Grace Hopper");
    await dialog.getByTestId("field-check").check();
    await shot("06-elicitation-form.png");
    await dialog.getByTestId("elicitation-accept").click();
    await expect
      .poll(async () => (await page.getByTestId("tool-output").textContent()) ?? "")
      .toContain("Grace Hopper");
    expect(await dialog.count()).toBe(0);
  });

  it("chats with the offline scripted model: a tool call with its result, server and time", async () => {
    await page.getByTestId("nav-chat").click();
    expect(await page.getByTestId("provider-banner").textContent()).toContain(
      "Offline scripted model — no API key was found",
    );
    await page.getByTestId("composer").fill("show me the tiny image");
    await page.getByTestId("send").click();
    const card = page.getByTestId("tool-card").first();
    await expect.poll(() => card.getByTestId("tool-card-status").textContent()).toMatch(/^done in \d+ ms$/);
    expect(await card.getByTestId("tool-card-name").textContent()).toBe("everything_get-tiny-image");
    expect(await card.textContent()).toContain("server: everything");
    expect(
      await card.getByTestId("content-image").evaluate((element: HTMLImageElement) => element.naturalWidth),
    ).toBe(20);
    await expect
      .poll(() => page.getByTestId("message-assistant").last().textContent())
      .toBe(
        'assistantDone. everything_get-tiny-image returned: "Here\'s the image you requested: The image above is the MCP logo" and 1 image.',
      );
    await shot("07-chat-tool-call.png");
  });

  it("asks before a destructive tool runs, and runs it once approved", async () => {
    await page
      .getByTestId("composer")
      .fill('write a file from-browser.txt with "written in the browser test"');
    await page.getByTestId("send").click();
    const approval = page.getByTestId("approval");
    await approval.waitFor();
    expect(await approval.textContent()).toContain(
      "Allow filesystem_write_file to run with these arguments?",
    );
    expect(JSON.parse((await approval.getByTestId("approval-arguments").textContent()) ?? "")).toMatchObject({
      content: "written in the browser test",
    });
    await shot("08-chat-approval.png");
    await approval.getByTestId("approve").click();
    const card = page.getByTestId("tool-card").last();
    await expect.poll(() => card.getByTestId("tool-card-status").textContent()).toMatch(/^done in/);
    expect(readFileSync(join(test.directory, "sandbox", "from-browser.txt"), "utf8")).toBe(
      "written in the browser test",
    );
  });

  it("stops a running turn with the stop button", async () => {
    await page.getByTestId("composer").fill("trigger the long running operation");
    await page.getByTestId("send").click();
    const card = page.getByTestId("tool-card").last();
    await expect
      .poll(() => card.getByTestId("tool-card-name").textContent())
      .toBe("everything_trigger-long-running-operation");
    await page.getByTestId("stop").click();
    await expect.poll(() => page.getByTestId("notice").last().textContent()).toBe("Stopped.");
    expect(await card.getByTestId("tool-card-status").textContent()).toBe("stopped");
    expect(await page.getByTestId("send").isEnabled()).toBe(true);
  });

  it("keeps the conversation after a reload", async () => {
    await page.reload();
    await page.getByTestId("conversation-item").first().waitFor();
    expect(await page.getByTestId("conversation-item").first().textContent()).toBe("show me the tiny image");
    await expect
      .poll(() => page.getByTestId("message-user").allTextContents())
      .toEqual([
        "youshow me the tiny image",
        'youwrite a file from-browser.txt with "written in the browser test"',
        "youtrigger the long running operation",
      ]);
    const names = await page.getByTestId("tool-card-name").allTextContents();
    expect(names).toEqual([
      "everything_get-tiny-image",
      "filesystem_write_file",
      "everything_trigger-long-running-operation",
    ]);
    expect(await page.getByTestId("tool-card").first().getByTestId("content-image").count()).toBe(1);
    await shot("09-chat-after-reload.png");
    expect(pageErrors).toEqual([]);
  });
});
