// Loaded before the benchmark (`node --import ./src/resolve-typescript.ts src/run.ts`) and in every
// process it starts. Node runs the workspace's TypeScript sources (tooling/*, whose exports point
// at `src/*.ts`) directly, but resolves import specifiers literally, while TypeScript under
// `moduleResolution: "Bundler"` (and vitest) let `./x.js` name `./x.ts`. So one `.js` specifier in a
// tooling file broke `pnpm bench` with ERR_MODULE_NOT_FOUND while every test passed. This hook
// resolves as TypeScript does: a relative `.js`/`.mjs` specifier from a TypeScript file that names
// no such file falls back to the `.ts`/`.mts` file of the same name, so either spelling works.
import * as nodeModule from "node:module";
import { pathToFileURL } from "node:url";

const typeScriptFile = /\.m?ts$/;
const javaScriptSpecifier = /^\.\.?\/.*\.m?js$/;

// Node 22.18 is also the first 22.x to run TypeScript without a flag.
if (typeof nodeModule.registerHooks !== "function")
  throw new Error(
    `the benchmark needs Node 22.18 or newer (this is ${process.version}): install a newer Node`,
  );

nodeModule.registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      const fromTypeScript = context.parentURL !== undefined && typeScriptFile.test(context.parentURL);
      if (!fromTypeScript || !javaScriptSpecifier.test(specifier) || !isModuleNotFound(error)) throw error;
      try {
        return nextResolve(specifier.replace(/js$/, "ts"), context);
      } catch {
        throw error; // neither exists: the error names the specifier as written
      }
    }
  },
});

function isModuleNotFound(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "ERR_MODULE_NOT_FOUND";
}

/** This hook as a `--import` argument, for the Node processes the benchmark starts. */
export const RESOLVE_TYPESCRIPT_IMPORT = pathToFileURL(import.meta.filename).href;
