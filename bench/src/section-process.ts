// Runs one section of `pnpm bench` in a Node process of its own, so that what earlier sections
// left behind in the bench's process (a large heap, worker threads, open sockets) does not slow
// the section's timings: both frameworks a section compares are measured in that same process.
//   node --import ./src/resolve-typescript.ts src/section-process.ts <module> <export> <args JSON> <result file>
// calls `<export>(...args)` of `./<module>` (an argument `{ "log": "stderr", … }` gets a `log`
// function writing to stderr) and writes what it returns as JSON to the result file.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const benchDir = fileURLToPath(new URL("..", import.meta.url));
const log = (line: string) => process.stderr.write(`${line}\n`);

/**
 * `name(...args)` of `module` (a file in bench/src) run in a new Node process; its stderr is the
 * bench's. The figures come back through JSON, so a section whose figures are not plain data
 * cannot be run this way.
 */
export async function inOwnProcess<T>(module: string, name: string, args: unknown[]): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), "junction-bench-section-"));
  const resultFile = join(dir, "figures.json");
  try {
    const child = spawn(
      process.execPath,
      [
        "--import",
        "./src/resolve-typescript.ts",
        fileURLToPath(import.meta.url),
        module,
        name,
        JSON.stringify(args),
        resultFile,
      ],
      { cwd: benchDir, stdio: ["ignore", "inherit", "inherit"] },
    );
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once("error", reject);
      child.once("exit", (exitCode, signal) => resolve(signal ? null : exitCode));
    });
    if (code !== 0) throw new Error(`bench: the ${name} section's process (${module}) failed (exit ${code})`);
    return JSON.parse(readFileSync(resultFile, "utf8")) as T;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const [module, name, argsJSON, resultFile] = process.argv.slice(2);
  if (!module || !name || !argsJSON || !resultFile) {
    throw new Error("usage: section-process.ts <module> <export> <args JSON> <result file>");
  }
  const exports = (await import(new URL(module, import.meta.url).href)) as Record<string, unknown>;
  const section = exports[name];
  if (typeof section !== "function") throw new Error(`bench: ${module} exports no function ${name}`);
  const args = (JSON.parse(argsJSON) as unknown[]).map((arg) =>
    typeof arg === "object" && arg !== null && (arg as { log?: unknown }).log === "stderr"
      ? { ...arg, log }
      : arg,
  );
  const figures = await (section as (...values: unknown[]) => Promise<unknown>)(...args);
  writeFileSync(resultFile, JSON.stringify(figures));
  // A section may leave servers or timers behind; its figures are written, so the process ends here.
  process.exit(0);
}
