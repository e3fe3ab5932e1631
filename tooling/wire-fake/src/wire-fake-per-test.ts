// A wire fake for each vitest test: the setup every provider test file wrote again by hand.
import { afterEach, beforeEach } from "vitest";
import { startWireFake, type WireFake } from "./index.js";

/**
 * Starts a fresh {@link WireFake} before each test of the file (or `describe`) it is called in and
 * closes it after; the returned fake stands for the current test's one.
 *
 * @example
 * ```ts
 * const fake = wireFakePerTest();
 * it("…", async () => {
 *   fake.enqueue({ chunks });
 *   const client = new Anthropic({ apiKey: "test", baseURL: fake.url });
 * });
 * ```
 */
export function wireFakePerTest(): WireFake {
  let running: WireFake | undefined;
  beforeEach(async () => {
    running = await startWireFake();
  });
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });
  const current = (): WireFake => {
    if (running === undefined) throw new TypeError("wireFakePerTest: the fake is used outside a test");
    return running;
  };
  return {
    get url() {
      return current().url;
    },
    get requests() {
      return current().requests;
    },
    enqueue: (...replies) => current().enqueue(...replies),
    close: () => current().close(),
  };
}
