#!/usr/bin/env node
// Runs the pinned @modelcontextprotocol/conformance server suites against conformance/server.mjs
// (built with the package's public API, from dist) and prints one line per scenario, a tally per
// run and a final total:
//
//   node conformance/run.mjs
//
// The runs: the pinned alpha (0.2.0-alpha.12)'s active suite (2025-11-25), the alpha's whole
// suite for 2026-07-28 (`--suite all`: pending and draft scenarios too, input_required among
// them), and the previous stable pin (0.1.16). A scenario passes when the runner reports no
// failed check for it.

import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
function conformance(packageName) {
  const manifest = require.resolve(`${packageName}/package.json`);
  const { version, bin } = require(manifest);
  return { version, cli: join(dirname(manifest), typeof bin === "string" ? bin : bin.conformance) };
}
const ALPHA = conformance("@modelcontextprotocol/conformance");
const PREVIOUS = conformance("@modelcontextprotocol/conformance-legacy");
const RUN_TIMEOUT_MS = 600_000;

/**
 * Scenarios known to fail, with why. They are printed as FAIL and counted as failed in the
 * closing line; only a failure not listed here makes the exit code non-zero.
 */
const KNOWN_FAILURES = new Map([]);

const RUNS = [
  { label: `${ALPHA.version} (active suite)`, cli: ALPHA.cli, args: [] },
  {
    label: `${ALPHA.version} --spec-version 2026-07-28 --suite all`,
    cli: ALPHA.cli,
    args: ["--spec-version", "2026-07-28", "--suite", "all"],
  },
  { label: `${PREVIOUS.version}`, cli: PREVIOUS.cli, args: [] },
];

function run(cli, args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], {
      env: { ...process.env, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), RUN_TIMEOUT_MS);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** Starts the conformance server; resolves with its URL once it prints it. */
function startServer() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(here, "server.mjs"), "0"], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let buffered = "";
    child.stdout.on("data", (chunk) => {
      buffered += chunk;
      const line = buffered.split("\n")[0];
      if (buffered.includes("\n")) resolve({ child, url: line.replace("127.0.0.1", "localhost") });
    });
    child.on("exit", (code) => reject(new Error(`conformance server exited with ${code} before listening`)));
  });
}

/** The summary lines: `✓ name: N passed, M failed` (or ✗). */
function parseSummary(output) {
  const results = [];
  const summary = output.slice(output.lastIndexOf("=== SUMMARY ==="));
  for (const line of summary.split("\n")) {
    const match = /^\s*[✓✗]\s+(\S+):\s+(\d+) passed, (\d+) failed/.exec(line);
    if (match) results.push({ name: match[1], passed: Number(match[2]), failed: Number(match[3]) });
  }
  return results;
}

/** Why a scenario failed, from the runner's output block for it. */
function failureLines(output, name) {
  const start = output.indexOf(`=== Running scenario: ${name} ===`);
  if (start < 0) return [];
  const end = output.indexOf("=== Running scenario:", start + 10);
  const block = output.slice(start, end < 0 ? output.indexOf("=== SUMMARY ===") : end);
  return block
    .split("\n")
    .filter((line) => /FAILURE|✗|Error|failed/i.test(line))
    .slice(0, 4)
    .map((line) => line.trim());
}

const { child, url } = await startServer();
let passed = 0;
let failed = 0;
let unexpected = 0;
try {
  for (const spec of RUNS) {
    const outputDirectory = await mkdtemp(join(tmpdir(), "junction-server-conformance-"));
    const { output } = await run(spec.cli, ["server", "--url", url, "-o", outputDirectory, ...spec.args]);
    await rm(outputDirectory, { recursive: true, force: true });
    const results = parseSummary(output);
    if (results.length === 0) {
      console.log(
        `${spec.label}: the runner printed no summary:\n${output.trim().split("\n").slice(-15).join("\n")}`,
      );
      failed += 1;
      unexpected += 1;
      continue;
    }
    let runPassed = 0;
    for (const result of results) {
      const ok = result.failed === 0;
      console.log(
        `${ok ? "PASS" : "FAIL"} ${spec.label} ${result.name} (${result.passed} checks passed, ${result.failed} failed)`,
      );
      if (!ok) {
        const known = KNOWN_FAILURES.get(result.name);
        if (known) console.log(`       known: ${known}`);
        else unexpected += 1;
        for (const line of failureLines(output, result.name)) console.log(`       ${line}`);
      }
      if (ok) runPassed += 1;
    }
    console.log(`${spec.label}: ${runPassed} passed, ${results.length - runPassed} failed\n`);
    passed += runPassed;
    failed += results.length - runPassed;
  }
} finally {
  child.kill("SIGTERM");
}
console.log(`conformance: ${passed} passed, ${failed} failed`);
if (unexpected > 0) console.log(`${unexpected} failure(s) not in the known list`);
process.exitCode = unexpected === 0 ? 0 : 1;
