import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    // Real servers start as processes: allow for a slow, shared machine.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
