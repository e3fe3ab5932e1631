// Debian's chromium, driven by playwright-core, for the browser tests: nothing is downloaded.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";

const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** A headless Chromium with a throwaway profile, and its first page. */
export interface LaunchedChromium {
  context: BrowserContext;
  page: Page;
  /** Saves a full-page screenshot of `page` as `name` in the `screenshots` folder. */
  shot(name: string): Promise<void>;
  /** Closes the browser and deletes its profile. */
  close(): Promise<void>;
}

/**
 * Launches headless Chromium (CHROMIUM_PATH, else /usr/bin/chromium) with a fresh profile and
 * its background traffic off. Errors thrown in the page are pushed to `pageErrors`.
 */
export async function launchChromium(options: {
  viewport: { width: number; height: number };
  pageErrors: string[];
  /** A folder of this test file's own for its screenshots, emptied at launch (under test-artifacts/). */
  screenshots?: string;
  /**
   * Allow third-party cookies and storage (partitioned), as Chrome does by default; this
   * Chromium's fresh profile blocks them, so a cross-site frame's `localStorage` throws.
   */
  thirdPartyStorage?: boolean;
}): Promise<LaunchedChromium> {
  if (!existsSync(executablePath)) {
    throw new Error(
      `The browser tests need Chromium at ${executablePath}: apt-get install chromium, or set CHROMIUM_PATH.`,
    );
  }
  if (options.screenshots) {
    rmSync(options.screenshots, { recursive: true, force: true });
    mkdirSync(options.screenshots, { recursive: true });
  }
  const profile = mkdtempSync(join(tmpdir(), "junction-playground-chromium-"));
  if (options.thirdPartyStorage) {
    mkdirSync(join(profile, "Default"));
    writeFileSync(
      join(profile, "Default", "Preferences"),
      JSON.stringify({ profile: { cookie_controls_mode: 0, block_third_party_cookies: false } }),
    );
  }
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    viewport: options.viewport,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on("pageerror", (error) => options.pageErrors.push(error.message));
  return {
    context,
    page,
    async shot(name) {
      if (!options.screenshots) throw new Error("launchChromium was given no screenshots folder.");
      await page.screenshot({ path: join(options.screenshots, name), fullPage: true });
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
