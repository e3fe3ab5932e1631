import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Each test file starts real MCP servers (and one starts Chromium): keep the machine calm.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 90_000,
    // Polls wait for real servers and a real browser; CI machines are busy.
    expect: { poll: { timeout: 20_000, interval: 50 } },
  },
});
