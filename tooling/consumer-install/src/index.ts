import { execFile } from "node:child_process";
import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

/** Runs a command with its stdin closed, so nothing can wait on a prompt. */
export function runCommand(
  command: string,
  args: string[],
  options: Parameters<typeof execFileAsync>[2] & { encoding?: "utf8" },
): Promise<{ stdout: string; stderr: string }> {
  const running = execFileAsync(command, args, { encoding: "utf8", ...options });
  running.child.stdin?.end();
  return running as Promise<{ stdout: string; stderr: string }>;
}
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
    const { stdout } = await runCommand("pnpm", ["pack", "--pack-destination", outDir], {
      cwd: dir,
      timeout: 120_000,
    });
    const file = stdout.trim().split("\n").pop()!.trim();
    tarballs.set(manifest.name, file.startsWith("/") ? file : join(outDir, file));
  }
  return tarballs;
}

/** Options of {@link installConsumerProject}. */
export interface ConsumerProjectOptions {
  /** The project's own `.npmrc`, e.g. `registry=http://127.0.0.1:4873/` to install from a local registry. */
  npmrc?: string;
  /** Variables added to {@link consumerEnvironment} for npm, e.g. `npm_config_userconfig`. */
  env?: NodeJS.ProcessEnv;
}

/**
 * Creates a consumer project in `dir` and installs the given dependencies with npm, as a user
 * would: `file:` tarballs or semver ranges from a registry for Junction's packages, registry
 * versions for anything else.
 */
export async function installConsumerProject(
  dir: string,
  dependencies: Record<string, string>,
  options: ConsumerProjectOptions = {},
): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, "package.json"),
    JSON.stringify({ name: "consumer", private: true, type: "module", dependencies }, null, 2),
  );
  if (options.npmrc !== undefined) await writeFile(join(dir, ".npmrc"), options.npmrc);
  await runCommand("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: dir,
    env: { ...consumerEnvironment(), ...options.env },
    maxBuffer: 16 * 1024 * 1024,
    timeout: 240_000,
  });
}

/**
 * The environment a user's shell would give npm: without the npm_config_* and pnpm_* variables
 * that `pnpm run` exports to our scripts (auto-install-peers, an empty `yes`, …), so the
 * consumer's install follows npm's own defaults.
 */
export function consumerEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(npm|pnpm)_/i.test(name)));
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
