import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Each test file starts real MCP servers (and one starts Chromium): keep the machine calm.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 90_000,
  },
});
