// Compile-time only (run by `pnpm type-check`): what `quickjsSandbox()` makes is the `Sandbox` of
// `@junction/types` that code mode runs programs through (an Agent's `codeMode: { sandbox }`),
// without a cast. This file fails to compile the day they drift apart.
import type { Sandbox } from "@junction/types";
import { quickjsSandbox } from "./index.js";

/** The interface code mode runs programs through. */
export const sandbox: Sandbox = quickjsSandbox({ limits: { cpuMs: 500 } });
