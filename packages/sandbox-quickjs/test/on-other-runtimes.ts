// The package's whole test suite on Bun and on Deno, as a smoke (not part of `pnpm test` or CI, which
// run on Node): `pnpm --filter @junction/sandbox-quickjs test:runtimes`. Each runtime is found from
// `BUN` / `DENO` or the PATH (both are on npm: `npm install --global bun deno`); a missing one is
// reported SKIPPED, and the script fails only when a runtime that is there fails. The tests run in
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
  { name: "Bun", variable: "BUN", command: "bun", args: ["--bun", ...vitestArgs("threads")] },
  { name: "Deno", variable: "DENO", command: "deno", args: ["run", "--allow-all", ...vitestArgs("forks")] },
];

function find(variable: string, command: string): string | undefined {
  return (
    process.env[variable] ??
    (process.env.PATH ?? "")
      .split(delimiter)
      .map((dir) => join(dir, command))
      .find((candidate) => existsSync(candidate))
  );
}

const failed: string[] = [];
for (const runtime of runtimes) {
  const executable = find(runtime.variable, runtime.command);
  if (!executable) {
    console.log(
      `${runtime.name}: SKIPPED, not installed (\`npm install --global ${runtime.command}\`, or set ${runtime.variable})`,
    );
    continue;
  }
  const version = spawnSync(executable, ["--version"], { encoding: "utf8" }).stdout.trim().split("\n")[0];
  console.log(`${runtime.name}: ${version}, ${executable}`);
  const { status, error } = spawnSync(executable, runtime.args, { cwd: packageDir, stdio: "inherit" });
  if (status !== 0) failed.push(`${runtime.name} (${error?.message ?? `exit code ${status}`})`);
}
if (failed.length > 0) {
  console.error(`The sandbox's tests failed on ${failed.join(", ")}.`);
  process.exit(1);
}
