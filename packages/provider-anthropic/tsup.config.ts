import { defineConfig } from "tsup";
import { bundleVendorSDK } from "../../tooling/build/bundle-vendor-sdk.js";

export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm"],
  dts: true,
  sourcemap: true,
  clean: true,
  target: "node22",
  ...bundleVendorSDK("@anthropic-ai/sdk", "anthropic-sdk"),
});
