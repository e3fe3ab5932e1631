import { copyFile, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, isAbsolute, join, resolve } from "node:path";
import type { Options } from "tsup";

/** What the esbuild plugin below needs of esbuild's plugin API. */
interface ResolvePlugin {
  name: string;
  setup(build: {
    onResolve(
      options: { filter: RegExp },
      callback: (args: { path: string; resolveDir: string }) => { path: string } | undefined,
    ): void;
  }): Promise<void>;
}

/**
 * tsup options that bundle a provider's vendor SDK into the package instead of depending on it.
 *
 * The Stainless-generated SDKs (`@anthropic-ai/sdk`, `openai`) install at 18–35 MB each — every
 * file in CommonJS, ESM, two declaration flavours, maps and TypeScript sources — while the code
 * a provider runs is about 1 MB. Bundled, that code ships in lazily loaded chunks under
 * `dist/<chunkDir>/` (still loaded only on the first request), with the SDK's license files
 * and a `bundled.json` naming its version beside it. Maps name the original files without carrying their text, which would quadruple the
 * package. The SDK stays a devDependency: its types are used at build time only, and the
 * package's public declarations must not mention it.
 *
 * The SDK's own browser substitutes (its package.json `browser` field, which replaces the one
 * module that imports Node built-ins with one that throws on use) are taken for every runtime,
 * so the provider's package bundles for browsers and Workers as the SDK itself does. The provider
 * never reaches what they replace (the SDK's credential files, its local tool helpers): it always
 * passes the API key.
 */
export function bundleVendorSDK(sdk: string, chunkDir: string): Options {
  return {
    noExternal: [sdk],
    esbuildPlugins: [browserSubstitutes(sdk)],
    esbuildOptions(options) {
      options.chunkNames = `${chunkDir}/[name]-[hash]`;
      options.sourcesContent = false;
    },
    async onSuccess() {
      const { dir: from, version } = await installedPackage(sdk);
      const to = join("dist", chunkDir);
      await mkdir(to, { recursive: true });
      await writeFile(join(to, "bundled.json"), `${JSON.stringify({ name: sdk, version })}\n`);
      const licenses = (await readdir(from)).filter((name) => /^(LICENSE|NOTICE)/i.test(name));
      if (licenses.length === 0) throw new Error(`${sdk} has no LICENSE file to ship with its bundled copy`);
      for (const name of licenses) await copyFile(join(from, name), join(to, name));
    },
  };
}

/**
 * An esbuild plugin that resolves the files `sdk`'s package.json `browser` field replaces to their
 * replacements, on every platform (esbuild applies that field only when bundling for browsers).
 */
function browserSubstitutes(sdk: string): ResolvePlugin {
  return {
    name: "vendor-sdk-browser-substitutes",
    async setup(build) {
      const { dir: root } = await installedPackage(sdk);
      const manifest = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as {
        browser?: unknown;
      };
      const substitutes = new Map<string, string>();
      if (manifest.browser && typeof manifest.browser === "object") {
        for (const [from, to] of Object.entries(manifest.browser as Record<string, unknown>)) {
          if (from.startsWith("./") && typeof to === "string")
            substitutes.set(resolve(root, from), resolve(root, to));
        }
      }
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        const file = isAbsolute(args.path) ? args.path : resolve(args.resolveDir, args.path);
        const substitute = substitutes.get(file);
        return substitute === undefined ? undefined : { path: substitute };
      });
    },
  };
}

/** The installed folder and version of `name`, found from its entry file (its exports may hide package.json). */
async function installedPackage(name: string): Promise<{ dir: string; version: string }> {
  let dir = dirname(createRequire(join(process.cwd(), "package.json")).resolve(name));
  for (;;) {
    try {
      const manifest = JSON.parse(await readFile(join(dir, "package.json"), "utf8"));
      if (manifest.name === name) return { dir, version: manifest.version };
    } catch {
      // No package.json here: keep walking up.
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`could not find the installed folder of ${name}`);
    dir = parent;
  }
}
