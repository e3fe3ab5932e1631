import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { type LaunchedChromium, launchChromium } from "./launch-chromium.js";
import { startTestPlayground, type TestPlayground } from "./test-playground.js";

/** A playground and the Chromium page a browser test drives it with. */
export interface BrowserSession {
  /** The playground (replace it to test a restart; the session closes the one it holds). */
  test: TestPlayground;
  page: Page;
  browser: LaunchedChromium;
  /** Errors the page threw: a test ends by expecting none. */
  pageErrors: string[];
}

/**
 * Starts a playground and Chromium before a test file's tests and closes both after them, with
 * screenshots in `test-artifacts/<artifacts>/`. Read the session's fields inside the tests.
 */
export function useBrowserSession(artifacts: string): BrowserSession {
  const session = { pageErrors: [] as string[] } as BrowserSession;
  beforeAll(async () => {
    session.test = await startTestPlayground();
    session.browser = await launchChromium({
      viewport: { width: 1280, height: 900 },
      pageErrors: session.pageErrors,
      screenshots: fileURLToPath(new URL(`../test-artifacts/${artifacts}/`, import.meta.url)),
    });
    session.page = session.browser.page;
  });
  afterAll(async () => {
    await session.browser?.close();
    await session.test?.close();
  });
  return session;
}
