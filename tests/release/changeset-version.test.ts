// Releasing is `pnpm changeset version`, then publishing: this runs the first step on a copy of
// the workspace's manifests and pending changesets, and checks what a release would contain.
import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { publishedPackageDirs } from "./published-packages.ts";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../..", import.meta.url));

let work: string | undefined;
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  dependencies?: Record<string, string>;
}

async function manifest(dir: string): Promise<Manifest> {
  return JSON.parse(await readFile(join(dir, "package.json"), "utf8")) as Manifest;
}

describe("changeset version", () => {
  it("bumps every published package to one version with a changelog, and leaves private ones alone", async () => {
    work = await mkdtemp(join(tmpdir(), "junction-release-"));
    const { stdout: tracked } = await run("git", ["ls-files"], { cwd: root });
    const wanted = tracked
      .split("\n")
      .filter(
        (file) =>
          file === "pnpm-workspace.yaml" ||
          file.startsWith(".changeset/") ||
          /^(?:[^/]+\/)*package\.json$/.test(file),
      )
      .filter((file) => !file.includes("__fixtures__"));
    for (const file of wanted) {
      await mkdir(dirname(join(work, file)), { recursive: true });
      await cp(join(root, file), join(work, file));
    }
    // The changelog generator is resolved from the project, as in the real workspace.
    await symlink(join(root, "node_modules"), join(work, "node_modules"), "dir");
    const pending = (await run("git", ["ls-files", ".changeset/*.md"], { cwd: root })).stdout
      .split("\n")
      .filter((file) => file && !file.endsWith("README.md"));
    // Right after a release every changeset is used up: then one patch for a package of the group
    // stands in, so that the mechanics are still checked.
    if (pending.length === 0) {
      const { name } = await manifest(join(root, publishedPackageDirs[0]!));
      await writeFile(
        join(work, ".changeset/release-test.md"),
        `---\n"${name}": patch\n---\n\nA stand-in change for the release test.\n`,
      );
    }

    const before = await Promise.all(publishedPackageDirs.map((dir) => manifest(join(work ?? "", dir))));
    const privateBefore = await manifest(join(work, "apps/playground"));
    await run(process.execPath, [join(root, "node_modules/@changesets/cli/bin.js"), "version"], {
      cwd: work,
      env: { ...process.env, CI: "true" },
    });

    const after = await Promise.all(publishedPackageDirs.map((dir) => manifest(join(work ?? "", dir))));
    const versions = new Set(after.map((m) => m.version));
    expect(versions.size, "the fixed group shares one version").toBe(1);
    const [version] = [...versions];
    expect(version).not.toBe(before[0]?.version);
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    console.log(`changeset version: ${before[0]?.version} → ${version}`);
    for (const [index, dir] of publishedPackageDirs.entries()) {
      const changelog = await readFile(join(work, dir, "CHANGELOG.md"), "utf8");
      expect(changelog, `${dir}/CHANGELOG.md`).toContain(`## ${version}`);
      // Internal dependencies stay workspace ranges; pnpm publish turns them into the version
      // (registry-round-trip.test.ts checks the published manifests).
      for (const [name, range] of Object.entries(after[index]?.dependencies ?? {})) {
        if (name.startsWith("@junction/")) expect(range, `${dir} → ${name}`).toMatch(/^workspace:/);
      }
    }
    expect(await manifest(join(work, "apps/playground"))).toEqual(privateBefore);
    // The changesets were used up.
    const left = await readdir(join(work, ".changeset"));
    expect(left.filter((file) => file.endsWith(".md") && file !== "README.md")).toEqual([]);
  }, 120_000);
});
