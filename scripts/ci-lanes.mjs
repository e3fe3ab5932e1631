#!/usr/bin/env node
// The checks after `pnpm build` and `pnpm lint` (the root `ci` script), in two lanes at once.
//
// Run one after the other, the checks left a core idle for minutes: the client conformance suite
// runs one scenario at a time and the smoke bench one measurement at a time, and turbo started the
// playground's tests (its files run one at a time, the longest chain of the suite) only once
// earlier packages freed a slot, so they ran alone at the end. Here the playground's tests start
// first in a lane of their own, the other packages' tests fill the second lane, and whichever lane
// is free takes the next of the remaining checks. Every step runs whatever failed before it.
//
// The build ran before, so the turbo runs here take `--only`: a second restore of the builds from
// turbo's cache would rewrite the `dist` folders that the other lane's tests are reading.
//
// Each line a step prints reaches this process's output whole (never two steps' halves on one
// line); a step that is not a turbo run gets its name in front, the way turbo names its tasks.
// At the end: each step's verdict and time, and the exit code 1 if any step failed.
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** A command the shell runs from the repository's root; `label` goes before its lines when set. */
const step = (name, command, label) => ({ name, command, label });

const lanes = [
  [step("playground tests", "turbo run test --only --filter=@junction/playground")],
  [step("tests", "turbo run test --only --filter=!@junction/playground --continue --concurrency=3")],
];
const shared = [
  step("conformance (client)", "pnpm --filter @junction/mcp-client conformance", "conformance-client"),
  step("type-check and packages", "turbo run type-check check:package --only --continue --concurrency=2"),
  step("conformance (server)", "pnpm --filter @junction/mcp-server conformance", "conformance-server"),
  step("bench smoke", "pnpm --filter @junction/bench smoke", "bench-smoke"),
];

if (process.argv.length > 2) {
  console.error(`usage: node scripts/ci-lanes.mjs (no arguments; got ${process.argv.slice(2).join(" ")})`);
  process.exit(2);
}

// Node's compile cache for every Node process the checks start (test workers, MCP servers, the
// CLIs the tests spawn): a module compiled once is not compiled again by the next process.
const compileCache = join(root, "node_modules", ".cache", "node-compile");
mkdirSync(compileCache, { recursive: true });
const env = { ...process.env, NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? compileCache };

const running = new Set();

/** Writes a stream's complete lines as they come, each prefixed when a label is given. */
function forwardLines(stream, label) {
  let pending = "";
  const prefix = label ? `${label}: ` : "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk) => {
    const lines = (pending + chunk).split("\n");
    pending = lines.pop();
    if (lines.length > 0) process.stdout.write(lines.map((line) => `${prefix}${line}\n`).join(""));
  });
  stream.on("end", () => {
    if (pending) process.stdout.write(`${prefix}${pending}\n`);
  });
}

function runStep({ name, command, label }) {
  return new Promise((resolve) => {
    const started = performance.now();
    console.log(`ci: ${name}: ${command}`);
    const child = spawn(command, { cwd: root, env, shell: true, stdio: ["ignore", "pipe", "pipe"] });
    running.add(child);
    forwardLines(child.stdout, label);
    forwardLines(child.stderr, label);
    const finish = (ok, reason) => {
      running.delete(child);
      const seconds = Math.round((performance.now() - started) / 1000);
      console.log(`ci: ${name}: ${ok ? "passed" : `failed (${reason})`} in ${seconds} s`);
      resolve({ name, ok, seconds });
    };
    child.on("error", (error) => finish(false, error.message));
    child.on("close", (code, signal) => finish(code === 0, signal ? `killed by ${signal}` : `exit ${code}`));
  });
}

async function runLane(own) {
  const results = [];
  for (const next of own) results.push(await runStep(next));
  for (let next = shared.shift(); next !== undefined; next = shared.shift())
    results.push(await runStep(next));
  return results;
}

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    for (const child of running) child.kill(signal);
    process.exit(130);
  });
}

const started = performance.now();
const results = (await Promise.all(lanes.map(runLane))).flat();
console.log(`ci: the checks after the build took ${Math.round((performance.now() - started) / 1000)} s:`);
for (const { name, ok, seconds } of results)
  console.log(`ci:   ${ok ? "passed" : "FAILED"}  ${seconds} s  ${name}`);
process.exitCode = results.every((result) => result.ok) ? 0 : 1;
