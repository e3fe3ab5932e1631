// The package's whole test suite on Bun and on Deno, as a smoke (not part of `pnpm test` or CI, which
// run on Node): `pnpm --filter @junction/sandbox-quickjs test:runtimes`. Each runtime is found from
// `BUN` / `DENO`, else this package's own (its devDependencies `bun` and `deno`, which `pnpm
// install` brings), else the PATH; a missing one is reported SKIPPED, and the script fails only
// when a runtime that is there fails. The tests run in
// the runtime itself: on Bun in worker threads (Vitest's forks pool cannot start there: no
// `channel.unref`), on Deno in forked Deno processes (its threads pool ends each file with Deno's
// "Not implemented: parentPort.removeAllListeners").
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const require = createRequire(import.meta.url);
const vitest = join(dirname(require.resolve("vitest/package.json")), "vitest.mjs");
const vitestArgs = (pool: string) => [
  vitest,
  "run",
  `--pool=${pool}`,
  "--testTimeout=60000",
  ...process.argv.slice(2),
];

const runtimes = [
  {
    name: "Bun",
    variable: "BUN",
    command: "bun",
    binary: "bun/bin/bun.exe",
    args: ["--bun", ...vitestArgs("threads")],
  },
  {
    name: "Deno",
    variable: "DENO",
    command: "deno",
    binary: "deno/deno",
    args: ["run", "--allow-all", ...vitestArgs("forks")],
  },
];

function find({ variable, command, binary }: (typeof runtimes)[number]): string | undefined {
  const own = join(packageDir, "node_modules", binary);
  return (
    process.env[variable] ??
    (existsSync(own) ? own : undefined) ??
    (process.env.PATH ?? "")
      .split(delimiter)
      .map((dir) => join(dir, command))
      .find((candidate) => existsSync(candidate))
  );
}

const failed: string[] = [];
for (const runtime of runtimes) {
  const executable = find(runtime);
  if (!executable) {
    console.log(
      `${runtime.name}: SKIPPED, not installed (\`pnpm install\` brings this package's own, or \`npm install --global ${runtime.command}\`, or set ${runtime.variable})`,
    );
    continue;
  }
  const version = spawnSync(executable, ["--version"], { encoding: "utf8" });
  if (version.error || version.status !== 0) {
    failed.push(`${runtime.name} (${executable} did not run: ${version.error?.message ?? version.stderr})`);
    continue;
  }
  console.log(`${runtime.name}: ${version.stdout.trim().split("\n")[0]}, ${executable}`);
  const { status, error } = spawnSync(executable, runtime.args, { cwd: packageDir, stdio: "inherit" });
  if (status !== 0) failed.push(`${runtime.name} (${error?.message ?? `exit code ${status}`})`);
}
if (failed.length > 0) {
  console.error(`The sandbox's tests failed on ${failed.join(", ")}.`);
  process.exit(1);
}
