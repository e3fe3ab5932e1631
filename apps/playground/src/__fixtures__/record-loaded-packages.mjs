// Loaded with `node --import` before a CLI run: records the package (the nearest package.json
// with a name) of every module the process loads, and writes their names, one a line, to the file
// $RECORD_LOADED_PACKAGES when the process exits. Node's built-in modules are left out.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { registerHooks } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const output = process.env.RECORD_LOADED_PACKAGES;
const packages = new Set();
/** The package a folder belongs to, by folder: most modules share a few. */
const packageOfFolder = new Map();

function packageOf(folder) {
  if (packageOfFolder.has(folder)) return packageOfFolder.get(folder);
  const manifest = join(folder, "package.json");
  let name;
  if (existsSync(manifest)) name = JSON.parse(readFileSync(manifest, "utf8")).name;
  // A package.json without a name (`{"type": "module"}` in a dist folder) is not the package's own.
  if (typeof name !== "string") name = dirname(folder) === folder ? "(none)" : packageOf(dirname(folder));
  packageOfFolder.set(folder, name);
  return name;
}

if (output) {
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const resolved = nextResolve(specifier, context);
      if (resolved.url.startsWith("file:")) packages.add(packageOf(dirname(fileURLToPath(resolved.url))));
      return resolved;
    },
  });
  process.on("exit", () => writeFileSync(output, [...packages].sort().join("\n")));
}
