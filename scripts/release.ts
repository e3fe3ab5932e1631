// `pnpm release`: publishes the fixed group of @junction/* packages, as versioned by
// `pnpm changeset version`, after checking that the workspace is ready and that what users will
// install builds, lints, type-checks, passes publint and arethetypeswrong, and passes the release
// tests (a packed install, the README examples, and a round trip through a local npm registry).
//
//   pnpm release [--registry <url>] [--tag <dist-tag>] [--otp <code>]
//
// The registry is --registry, else npm_config_registry, else the one in your npm config. The
// token is read by npm from an .npmrc line such as `//registry.npmjs.org/:_authToken=${NPM_TOKEN}`.
// tests/release/registry-round-trip.test.ts publishes through `publishRelease` below.
import { spawn } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** A reason not to release, with what to do about it. */
export class ReleaseRefusedError extends Error {
  override readonly name = "ReleaseRefusedError";
  readonly code: ReleaseRefusedCode;
  constructor(code: ReleaseRefusedCode, message: string) {
    super(message);
    this.code = code;
  }
}

/** Why {@link ReleaseRefusedError} was thrown. */
export type ReleaseRefusedCode =
  | "release-not-ready"
  | "release-check-failed"
  | "release-publish-failed"
  | "release-usage";

/** What `pnpm release` runs before publishing, in order: each must pass. */
export const releaseChecks: readonly (readonly string[])[] = [
  ["pnpm", "build"],
  ["pnpm", "lint"],
  ["pnpm", "type-check"],
  ["pnpm", "check:packages"],
  // The tests about what users get: the packed install, the README examples and claims, the
  // changeset version run, and the publish → install → run round trip through a local registry.
  // The rest of `pnpm test` is CI's to pass on main before a release.
  ["pnpm", "--filter", "@junction/scenarios", "exec", "vitest", "run", "release/"],
];

interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command; `inherit` shows its output as it goes instead of collecting it. */
function runCommand(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; inherit?: boolean },
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ["ignore", options.inherit ? "inherit" : "pipe", options.inherit ? "inherit" : "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.setEncoding("utf8").on("data", (text: string) => {
      stdout += text;
    });
    child.stderr?.setEncoding("utf8").on("data", (text: string) => {
      stderr += text;
    });
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr }));
  });
}

/** The changesets in `.changeset/` that `changeset version` has not used up yet. */
export async function pendingChangesets(root: string): Promise<string[]> {
  const files = await readdir(join(root, ".changeset")).catch(() => []);
  return files.filter((file) => file.endsWith(".md") && file !== "README.md").sort();
}

/**
 * What stands in the way of a release, each with what to do: uncommitted changes, and changesets
 * not yet turned into versions and changelogs. Empty when the workspace is ready.
 */
export async function releaseBlockers(root: string): Promise<string[]> {
  const blockers: string[] = [];
  const status = await runCommand("git", ["status", "--porcelain", "--untracked-files=normal"], {
    cwd: root,
  });
  if (status.code !== 0) {
    blockers.push(
      `git status failed in ${root}: ${status.stderr.trim()}. Run pnpm release in the repository.`,
    );
  } else if (status.stdout.trim() !== "") {
    const files = status.stdout.trimEnd().split("\n");
    blockers.push(
      `The working tree has uncommitted changes (${files.length}: ${files
        .slice(0, 5)
        .map((line) => line.slice(3))
        .join(", ")}${files.length > 5 ? ", …" : ""}). ` +
        "Commit or stash them, so that what is published is a commit, then run pnpm release again.",
    );
  }
  const pending = await pendingChangesets(root);
  if (pending.length > 0) {
    blockers.push(
      `${pending.length} changeset${pending.length === 1 ? " is" : "s are"} not versioned yet ` +
        `(${pending.slice(0, 5).join(", ")}${pending.length > 5 ? ", …" : ""}). ` +
        "Run `pnpm changeset version` to bump the packages and write their CHANGELOG.md files, " +
        "review and commit that, then run pnpm release again.",
    );
  }
  return blockers;
}

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
}

/** The packages of the fixed release group (.changeset/config.json) with their versions. */
export async function releaseGroup(root: string): Promise<Manifest[]> {
  const config = JSON.parse(await readFile(join(root, ".changeset/config.json"), "utf8")) as {
    fixed?: string[][];
  };
  const names = new Set(config.fixed?.flat() ?? []);
  const manifests: Manifest[] = [];
  for (const entry of await readdir(join(root, "packages"))) {
    const manifest = JSON.parse(
      await readFile(join(root, "packages", entry, "package.json"), "utf8").catch(() => "{}"),
    ) as Manifest;
    if (names.has(manifest.name)) manifests.push(manifest);
  }
  return manifests.sort((a, b) => a.name.localeCompare(b.name));
}

/** The environment for npm and pnpm: the given one, with `npm_config_registry` set when a registry is named. */
function registryEnvironment(registry: string | undefined, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return registry === undefined ? env : { ...env, npm_config_registry: registry };
}

/** The registry npm would publish to, with the same configuration `pnpm publish` reads. */
export async function resolveRegistry(
  root: string,
  registry: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  if (registry !== undefined) return registry;
  const result = await runCommand("npm", ["config", "get", "registry"], { cwd: root, env });
  return result.code === 0 && result.stdout.trim() !== ""
    ? result.stdout.trim()
    : "https://registry.npmjs.org/";
}

/** Why an npm command failed, in npm's own words: see {@link npmFailureReason}. */
export interface NpmFailureReason {
  /** npm's error code, such as `ENEEDAUTH`, when it printed one. */
  code?: string;
  /** npm's first line saying what went wrong, such as `need auth This command requires you to be logged in.` */
  reason: string;
}

/**
 * The `npm error` lines that are not the sentence saying what went wrong: the error's fields npm
 * prints before it (`code ENEEDAUTH`, `syscall connect`, `errno ECONNREFUSED`), the stack and the
 * error object it prints after a network failure (`at …`, `{`, `code: 'ECONNREFUSED',`, `}`),
 * and the log file's line.
 */
const NPM_ERROR_DETAIL =
  /^(code|syscall|errno|path|dest|file) \S+$|^at |^[{}]$|^\w+: ('[^']*'|\w+),?$|^A complete log/;

/**
 * Picks why an npm command failed out of what it printed on stderr: the `npm error code …` line
 * and npm's sentence saying what went wrong (its first `npm error` line that is not one of the
 * error's fields, see {@link NPM_ERROR_DETAIL}), leaving out its warnings (such as the one about
 * a project `.npmrc` setting npm does not know, which it prints before every command). Without
 * any such line, the last line npm printed that is not a warning, or "no answer".
 */
export function npmFailureReason(stderr: string): NpmFailureReason {
  const lines = stderr
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
  // npm 7 and later prefix errors with `npm error`, npm 6 with `npm ERR!`.
  const errors = lines
    .filter((line) => /^npm (error|ERR!)( |$)/.test(line))
    .map((line) => line.replace(/^npm (error|ERR!)/, "").trim())
    .filter((line) => line !== "");
  const code = errors
    .find((line) => line.startsWith("code "))
    ?.slice(5)
    .trim();
  const reason =
    errors.find((line) => !NPM_ERROR_DETAIL.test(line)) ??
    lines.filter((line) => !/^npm (warn|WARN|notice|error|ERR!)( |$)/.test(line)).at(-1) ??
    "no answer";
  return code ? { code, reason } : { reason };
}

/** npm's codes for a registry that wants a login it did not get: none sent, or one it refused. */
const NPM_AUTH_CODES = new Set(["ENEEDAUTH", "E401", "E403"]);

/**
 * Fails unless npm has a token for the registry (`npm whoami` answers); returns the user name.
 * The refusal quotes npm's error, and tells a missing or refused login from a registry npm
 * could not ask.
 */
export async function checkRegistryLogin(
  root: string,
  registry: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  const result = await runCommand("npm", ["whoami", "--registry", registry], {
    cwd: root,
    env: registryEnvironment(registry, env),
  });
  if (result.code === 0) return result.stdout.trim();
  const { code, reason } = npmFailureReason(result.stderr);
  const quoted = `npm whoami: ${code ? `${code}, ` : ""}${reason}`;
  if (code === undefined || !NPM_AUTH_CODES.has(code)) {
    // Not a question of the login: a registry npm cannot reach, or a failure of npm itself.
    throw new ReleaseRefusedError(
      "release-not-ready",
      `Could not ask ${registry} who is logged in (${quoted}). Check that the registry is right ` +
        "(--registry, npm_config_registry or the registry in your npm config) and reachable, " +
        "then run pnpm release again.",
    );
  }
  const host = registry.replace(/^https?:/, "").replace(/\/?$/, "/");
  throw new ReleaseRefusedError(
    "release-not-ready",
    `Not logged in to ${registry} (${quoted}). ` +
      `Put the line \`${host}:_authToken=\${NPM_TOKEN}\` in your ~/.npmrc and export NPM_TOKEN ` +
      "(an npm automation or granular token that may publish @junction/*), then run pnpm release again.",
  );
}

/** Options of {@link publishRelease}. */
export interface PublishReleaseOptions {
  /** The workspace root. */
  root: string;
  /** The registry to publish to. @default npm_config_registry, else the one in the npm config */
  registry?: string;
  /** The environment npm and pnpm run with. @default process.env */
  env?: NodeJS.ProcessEnv;
  /** The npm dist-tag. @default "latest" */
  tag?: string;
  /** A one-time password for registries that ask for one. */
  otp?: string;
  /** Create a git tag per published package, as a real release does. @default true */
  gitTag?: boolean;
}

/**
 * The publish step of `pnpm release`: checks the login, then `changeset publish`, which publishes
 * every package of the group whose version the registry does not have yet with `pnpm publish`
 * (which turns `workspace:*` into the exact version of the sibling).
 */
export async function publishRelease(options: PublishReleaseOptions): Promise<void> {
  const env = registryEnvironment(options.registry, options.env ?? process.env);
  const registry = await resolveRegistry(options.root, options.registry, env);
  await checkRegistryLogin(options.root, registry, env);
  const changeset = join(options.root, "node_modules/@changesets/cli/bin.js");
  const args = [changeset, "publish"];
  if (options.tag !== undefined) args.push("--tag", options.tag);
  if (options.otp !== undefined) args.push("--otp", options.otp);
  if (options.gitTag === false) args.push("--no-git-tag");
  const result = await runCommand(process.execPath, args, { cwd: options.root, env, inherit: true });
  if (result.code !== 0) {
    throw new ReleaseRefusedError(
      "release-publish-failed",
      `changeset publish to ${registry} failed (exit code ${result.code}; its output is above). ` +
        "Packages it did publish stay published: fix the cause and run pnpm release again to publish the rest.",
    );
  }
}

interface ReleaseArguments {
  registry?: string;
  tag?: string;
  otp?: string;
}

const usage = "usage: pnpm release [--registry <url>] [--tag <dist-tag>] [--otp <code>]";

function parseArguments(argv: readonly string[]): ReleaseArguments {
  const parsed: ReleaseArguments = {};
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] ?? "";
    const [flag, inline] = argument.startsWith("--") ? argument.split(/=(.*)/s, 2) : [argument];
    if (flag !== "--registry" && flag !== "--tag" && flag !== "--otp") {
      throw new ReleaseRefusedError("release-usage", `Unknown argument ${argument}. ${usage}`);
    }
    const value = inline ?? argv[++index];
    if (value === undefined || value === "") {
      throw new ReleaseRefusedError("release-usage", `${flag} needs a value. ${usage}`);
    }
    parsed[flag.slice(2) as keyof ReleaseArguments] = value;
  }
  return parsed;
}

async function release(root: string, argv: readonly string[]): Promise<void> {
  // `pnpm release -- --registry …` passes the `--` along.
  const options = parseArguments(argv.filter((argument) => argument !== "--"));
  const blockers = await releaseBlockers(root);
  if (blockers.length > 0) {
    throw new ReleaseRefusedError(
      "release-not-ready",
      `pnpm release refused:\n${blockers.map((blocker) => `- ${blocker}`).join("\n")}`,
    );
  }
  const group = await releaseGroup(root);
  const versions = [...new Set(group.map((manifest) => manifest.version))];
  if (versions.length !== 1) {
    throw new ReleaseRefusedError(
      "release-not-ready",
      `The fixed group has more than one version (${group.map((m) => `${m.name}@${m.version}`).join(", ")}). ` +
        "Set them to one version (`pnpm changeset version` keeps them together), commit, and run pnpm release again.",
    );
  }
  const env = registryEnvironment(options.registry, process.env);
  const registry = await resolveRegistry(root, options.registry, env);
  const user = await checkRegistryLogin(root, registry, env);
  console.log(`pnpm release: ${group.length} packages at ${versions[0]} to ${registry} as ${user}`);

  for (const [command, ...args] of releaseChecks) {
    const line = [command, ...args].join(" ");
    console.log(`\npnpm release: ${line}`);
    const result = await runCommand(command ?? "pnpm", args, { cwd: root, env, inherit: true });
    if (result.code !== 0) {
      throw new ReleaseRefusedError(
        "release-check-failed",
        `pnpm release stopped: \`${line}\` failed (its output is above). Nothing was published. ` +
          "Fix it, commit, and run pnpm release again.",
      );
    }
  }
  // The checks must not have changed what is about to be published.
  const after = await releaseBlockers(root);
  if (after.length > 0) {
    throw new ReleaseRefusedError(
      "release-check-failed",
      `pnpm release stopped: the checks changed the working tree:\n${after.map((b) => `- ${b}`).join("\n")}`,
    );
  }

  console.log(`\npnpm release: changeset publish to ${registry}`);
  await publishRelease({ root, env, ...options });
  console.log(
    `\npnpm release: published ${versions[0]}. Push the release tags: git push --follow-tags (or git push --tags).`,
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  // pnpm runs root scripts in the workspace root.
  release(process.cwd(), process.argv.slice(2)).catch((error: unknown) => {
    if (error instanceof ReleaseRefusedError) {
      console.error(`\n${error.message}`);
      process.exitCode = error.code === "release-usage" ? 2 : 1;
    } else {
      console.error(error);
      process.exitCode = 1;
    }
  });
}
