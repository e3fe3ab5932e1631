import { ProviderError } from "@junction/types";
import { describe, expect, it } from "vitest";
import { createLazyImport } from "./create-lazy-import.js";

describe("createLazyImport", () => {
  it("loads once, on the first call, and shares the result", async () => {
    let loads = 0;
    const load = createLazyImport(
      async () => {
        loads += 1;
        return { version: loads };
      },
      { packageName: "some-sdk", provider: "acme" },
    );
    expect(loads).toBe(0);
    const [first, second] = await Promise.all([load(), load()]);
    expect(await load()).toBe(first);
    expect(second).toBe(first);
    expect(first).toEqual({ version: 1 });
    expect(loads).toBe(1);
  });

  it("turns a failed import into provider-config-invalid naming the package, and retries next time", async () => {
    let attempts = 0;
    const load = createLazyImport(
      async () => {
        attempts += 1;
        if (attempts === 1) throw new Error("Cannot find package 'some-sdk'");
        return "loaded";
      },
      { packageName: "some-sdk", provider: "acme" },
    );
    const error = await load().catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: "provider-config-invalid",
      provider: "acme",
      message:
        "The acme provider could not load some-sdk: install it (npm install some-sdk). Cannot find package 'some-sdk'",
    });
    expect((error as Error).cause).toEqual(new Error("Cannot find package 'some-sdk'"));
    expect(await load()).toBe("loaded");
    expect(attempts).toBe(2);
  });

  it("imports a real module through a literal import()", async () => {
    const load = createLazyImport(() => import("node:path"), { packageName: "node:path", provider: "acme" });
    const path = await load();
    expect(path.posix.join("a", "b")).toBe("a/b");
    const missing = createLazyImport(() => import("junction-no-such-package-" + "x"), {
      packageName: "junction-no-such-package-x",
      provider: "acme",
    });
    await expect(missing()).rejects.toThrow(
      /^The acme provider could not load junction-no-such-package-x: install it \(npm install junction-no-such-package-x\)\./,
    );
  });
});
