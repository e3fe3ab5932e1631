import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    // What the "node" entry adds (stdio), as a Node.js user gets it from `@junction/mcp-client`.
    setupFiles: ["test/node-entry.ts"],
    // Real servers start as processes: allow for a slow, shared machine.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
