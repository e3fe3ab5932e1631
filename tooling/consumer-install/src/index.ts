import { execFile } from "node:child_process";
import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

/** Packs every published (non-private) package under packages/ and returns name → tarball path. */
export async function packPublishedPackages(outDir: string): Promise<Map<string, string>> {
  await mkdir(outDir, { recursive: true });
  const tarballs = new Map<string, string>();
  const packagesDir = join(repoRoot, "packages");
  for (const entry of await readdir(packagesDir)) {
    const dir = join(packagesDir, entry);
    const manifest = JSON.parse(await readFile(join(dir, "package.json"), "utf8"));
    if (manifest.private) continue;
    // pnpm pack turns workspace:* into the real version, as publishing does.
    const { stdout } = await run("pnpm", ["pack", "--pack-destination", outDir], { cwd: dir });
    const file = stdout.trim().split("\n").pop()!.trim();
    tarballs.set(manifest.name, file.startsWith("/") ? file : join(outDir, file));
  }
  return tarballs;
}

/**
 * Creates a consumer project in `dir` and installs the given dependencies with npm, as a user
 * would: `file:` tarballs for Junction's packages, registry versions for anything else.
 */
export async function installConsumerProject(
  dir: string,
  dependencies: Record<string, string>,
): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, "package.json"),
    JSON.stringify({ name: "consumer", private: true, type: "module", dependencies }, null, 2),
  );
  await run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: dir,
    maxBuffer: 16 * 1024 * 1024,
  });
}

/** The bytes a directory tree takes on disk (files only, links not followed). */
export async function directorySize(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += await directorySize(path);
    else if (entry.isFile()) total += (await stat(path)).size;
  }
  return total;
}
