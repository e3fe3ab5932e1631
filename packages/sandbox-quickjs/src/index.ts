export type { VariantSource } from "./engine-pool.js";
export { type QuickJSSandboxOptions, quickjsSandbox } from "./quickjs-sandbox.js";
export { DEFAULT_SANDBOX_LIMITS } from "./sandbox-limits.js";
