import { execFile } from "node:child_process";
import { promisify } from "node:util";

export interface SDKLoadingProbe {
  /** Modules resolved by importing the package and calling its factory. */
  beforeStream: { sawTypes: boolean; sdk: string[] };
  /** SDK modules resolved once the first stream() has run. */
  afterStream: { sdk: string[] };
  /** Modules resolved from an installed copy of the SDK (node_modules), before or after. */
  installedSDK: string[];
  /** With `bundledDir`: the bytes of the bundled SDK's files loaded before and after the first stream. */
  bundledBytes: { beforeStream: number; afterStream: number };
  /** The text the stream produced. */
  text: string;
}

// Runs in a fresh Node process with a resolve hook that records every module it resolves.
const probe = `
import { registerHooks } from "node:module";
import { statSync } from "node:fs";
import { fileURLToPath } from "node:url";
const [distURL, options] = [process.argv[1], JSON.parse(process.argv[2])];
const resolved = [];
registerHooks({
  resolve(specifier, context, nextResolve) {
    const result = nextResolve(specifier, context);
    resolved.push({ specifier, url: result.url });
    return result;
  },
});
const isInstalledSDK = (entry) => entry.url.includes("/node_modules/" + options.sdk + "/");
const isBundledSDK = (entry) =>
  options.bundledDir !== undefined && entry.url.startsWith(new URL(options.bundledDir, distURL).href);
const isSDK = (entry) =>
  entry.specifier === options.sdk || entry.specifier.startsWith(options.sdk + "/") ||
  isInstalledSDK(entry) || isBundledSDK(entry);
const bundledBytes = () =>
  [...new Set(resolved.filter(isBundledSDK).map((entry) => entry.url))]
    .reduce((total, url) => total + statSync(fileURLToPath(url)).size, 0);
const sdkSeen = () => [...new Set(resolved.filter(isSDK).map((entry) => entry.specifier))];
const provider = (await import(distURL))[options.factory](options.settings);
const beforeStream = { sawTypes: resolved.some((entry) => entry.specifier === "@junction/types"), sdk: sdkSeen() };
const bundledBytesBefore = bundledBytes();
let text = "";
for await (const event of provider.stream({ model: options.model, messages: [{ role: "user", content: "Hello" }] })) {
  if (event.type === "text-delta") text += event.text;
}
const installedSDK = [...new Set(resolved.filter(isInstalledSDK).map((entry) => entry.url))];
process.stdout.write(JSON.stringify({
  beforeStream, afterStream: { sdk: sdkSeen() }, installedSDK,
  bundledBytes: { beforeStream: bundledBytesBefore, afterStream: bundledBytes() }, text,
}));
`;

/**
 * Imports a built provider package in a fresh Node process, calls its factory, then streams once,
 * and reports which vendor SDK modules were resolved before and after the first stream. Runs the
 * child asynchronously, so a wire fake in the calling process can answer its request.
 */
export async function probeSDKLoading(options: {
  /** file: URL of the package's built entry. */
  distURL: string;
  /** The directory to run in, so the package's dependencies resolve. */
  cwd: string;
  sdk: string;
  /**
   * For a package that bundles its SDK: the folder of the bundled SDK's chunks, relative to the
   * built entry (for example "./anthropic-sdk/"). Modules resolved there count as the SDK, and
   * their bytes are summed (the folder also holds esbuild's small shared module helpers).
   */
  bundledDir?: string;
  factory: string;
  settings: Record<string, unknown>;
  model: string;
}): Promise<SDKLoadingProbe> {
  const { distURL, cwd, ...rest } = options;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--input-type=module", "--eval", probe, distURL, JSON.stringify(rest)],
    { cwd },
  );
  return JSON.parse(stdout) as SDKLoadingProbe;
}
