import { defineConfig } from "tsup";

export default defineConfig([
  {
    // The server and CLI: Node, dependencies stay external.
    entry: { cli: "src/cli.ts" },
    outDir: "dist/server",
    format: ["esm"],
    platform: "node",
    // The commands and the endpoint's server load with import(): their own chunks beside cli.js.
    splitting: true,
    // node:sqlite exists only with its prefix.
    removeNodeProtocol: false,
    target: "node22",
    sourcemap: true,
    clean: true,
  },
  {
    // The web UI: one browser bundle, no framework, plus the static page and styles.
    entry: { app: "src/ui/main.ts" },
    outDir: "dist/ui",
    format: ["iife"],
    platform: "browser",
    target: "es2022",
    sourcemap: true,
    clean: true,
    publicDir: "src/ui/public",
    outExtension: () => ({ js: ".js" }),
  },
]);
