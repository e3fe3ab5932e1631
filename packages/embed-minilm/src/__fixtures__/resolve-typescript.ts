// Loaded in the child processes the tests start (`node --import ./resolve-typescript.ts`): Node runs
// this package's TypeScript sources directly, and this hook lets their `./x.js` specifiers name
// `./x.ts`, as TypeScript and vitest resolve them.
import { registerHooks } from "node:module";

registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      if (!/^\.\.?\/.*\.js$/.test(specifier) || !context.parentURL?.endsWith(".ts")) throw error;
      return nextResolve(specifier.replace(/\.js$/, ".ts"), context);
    }
  },
});
