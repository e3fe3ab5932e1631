import { defineConfig } from "vitest/config";

export default defineConfig({
  // The Restate SDK logs every invocation at INFO; the tests keep its warnings and errors.
  test: { env: { RESTATE_LOGGING: "WARN" } },
});
