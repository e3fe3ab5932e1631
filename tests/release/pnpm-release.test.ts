// `pnpm release` refuses, before building or publishing anything, a workspace that is not ready,
// and says what to do. Run on small git repositories of the test's own, as `pnpm release` runs:
// `node scripts/release.ts` in the workspace root.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { consumerEnvironment, runCommand } from "@junction/consumer-install";
import { closedLocalURL } from "@junction/wire-fake";
import { afterAll, describe, expect, it } from "vitest";

const script = fileURLToPath(new URL("../../scripts/release.ts", import.meta.url));
const made: string[] = [];
afterAll(async () => {
  for (const dir of made) await rm(dir, { recursive: true, force: true });
});

/** A committed workspace with the given files, in a fresh git repository. */
async function workspace(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "junction-release-refusal-"));
  made.push(dir);
  for (const [file, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await writeFile(join(dir, file), text);
  }
  const git = (...args: string[]) =>
    runCommand("git", ["-c", "user.name=test", "-c", "user.email=test@example.com", ...args], { cwd: dir });
  await git("init", "-q");
  await git("add", "-A");
  await git("commit", "-q", "-m", "workspace");
  return dir;
}

const ready = {
  "pnpm-workspace.yaml": "packages:\n  - packages/*\n",
  ".changeset/config.json": JSON.stringify({ fixed: [["@junction/types", "@junction/core"]] }),
  ".changeset/README.md": "# Changesets\n",
  "packages/types/package.json": JSON.stringify({ name: "@junction/types", version: "0.1.0" }),
  "packages/core/package.json": JSON.stringify({ name: "@junction/core", version: "0.1.0" }),
};

async function release(cwd: string, args: string[] = [], env: NodeJS.ProcessEnv = {}) {
  return runCommand(process.execPath, [script, ...args], {
    cwd,
    env: { ...consumerEnvironment(), ...env },
    timeout: 60_000,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: error.code,
      stdout: error.stdout ?? "",
      stderr: error.stderr ?? "",
    }),
  );
}

describe("pnpm release refuses", () => {
  it("pending changesets and uncommitted changes, naming them and what to do", async () => {
    const dir = await workspace({
      ...ready,
      ".changeset/core-feature.md": '---\n"@junction/core": minor\n---\n\nA feature.\n',
    });
    await writeFile(join(dir, "notes.txt"), "not committed\n");

    const result = await release(dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      [
        "",
        "pnpm release refused:",
        "- The working tree has uncommitted changes (1: notes.txt). Commit or stash them, so that what is " +
          "published is a commit, then run pnpm release again.",
        "- 1 changeset is not versioned yet (core-feature.md). Run `pnpm changeset version` to bump the " +
          "packages and write their CHANGELOG.md files, review and commit that, then run pnpm release again.",
        "",
      ].join("\n"),
    );
  });

  it("a workspace whose group has more than one version", async () => {
    const dir = await workspace({
      ...ready,
      "packages/core/package.json": JSON.stringify({ name: "@junction/core", version: "0.2.0" }),
    });
    const result = await release(dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      "The fixed group has more than one version (@junction/core@0.2.0, @junction/types@0.1.0).",
    );
  });

  it("a registry it has no login for, before running any check, quoting npm's reason", async () => {
    // The repository's own .npmrc, whose pnpm-only setting makes npm print a warning first.
    const dir = await workspace({ ...ready, ".npmrc": "engine-strict=false\nauto-install-peers=true\n" });
    const registry = `${await closedLocalURL()}/`;
    const userconfig = join(dir, "..", `${dir.split("/").pop()}.npmrc`);
    made.push(userconfig);
    await writeFile(userconfig, "");
    const result = await release(dir, ["--registry", registry], {
      npm_config_userconfig: userconfig,
      npm_config_fetch_retries: "0",
    });
    expect(result.code).toBe(1);
    expect(result.stdout).not.toContain("pnpm release: pnpm build");
    expect(result.stderr).toContain(
      `Not logged in to ${registry} (npm whoami: ENEEDAUTH, need auth This command requires you to be logged in.). `,
    );
    expect(result.stderr).not.toContain("auto-install-peers");
    expect(result.stderr).toContain(
      `Put the line \`${registry.replace("http:", "")}:_authToken=\${NPM_TOKEN}\` in your ~/.npmrc and export NPM_TOKEN`,
    );
  });

  it("a registry it cannot reach, saying so instead of asking for a login it has", async () => {
    const dir = await workspace({ ...ready, ".npmrc": "engine-strict=false\nauto-install-peers=true\n" });
    const registry = `${await closedLocalURL()}/`;
    const userconfig = join(dir, "..", `${dir.split("/").pop()}.npmrc`);
    made.push(userconfig);
    await writeFile(userconfig, `${registry.replace("http:", "")}:_authToken=a-token\n`);
    const result = await release(dir, ["--registry", registry], {
      npm_config_userconfig: userconfig,
      npm_config_fetch_retries: "0",
    });
    expect(result.code).toBe(1);
    expect(result.stdout).not.toContain("pnpm release: pnpm build");
    expect(result.stderr).toContain(
      `Could not ask ${registry} who is logged in (npm whoami: ECONNREFUSED, FetchError: request to ${registry}-/whoami failed, reason: connect ECONNREFUSED `,
    );
    expect(result.stderr).toContain("Check that the registry is right");
    expect(result.stderr).not.toContain("Not logged in");
    expect(result.stderr).not.toContain("auto-install-peers");
  });

  it("an unknown argument, with the usage", async () => {
    const dir = await workspace(ready);
    const result = await release(dir, ["--registy", "http://127.0.0.1:1/"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "\nUnknown argument --registy. usage: pnpm release [--registry <url>] [--tag <dist-tag>] [--otp <code>]\n",
    );
  });
});
