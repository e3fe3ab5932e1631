#!/usr/bin/env node
// Runs the pinned @modelcontextprotocol/conformance client suites against client.mjs, one
// scenario at a time, and prints one line per scenario, a tally per run and a final total:
//
//   node conformance/run.mjs                 every run below
//   node conformance/run.mjs sse-retry ...   only the named scenarios (in every run listing them)
//
// The runs: the pinned alpha (0.2.0-alpha.12) with --spec-version 2025-11-25, 2026-07-28 and
// 2025-03-26 (its two back-compat scenarios), the alpha's extension scenarios, and of the
// previous pin (0.1.16) the scenarios the alpha no longer has under the same name (each other
// 0.1.16 scenario runs in the alpha runs, in its newer form).
//
// A scenario passes when the conformance runner does: no FAILURE and no WARNING check,
// the client exited 0 (where the scenario requires it), and it did not time out.

import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
/** The installed conformance CLI of a package name (the alpha, or 0.1.16 under an alias). */
function conformance(packageName) {
  const manifest = require.resolve(`${packageName}/package.json`);
  const { version, bin } = require(manifest);
  return { version, cli: join(dirname(manifest), typeof bin === "string" ? bin : bin.conformance) };
}
const ALPHA = conformance("@modelcontextprotocol/conformance");
const PREVIOUS = conformance("@modelcontextprotocol/conformance-legacy");
const clientCommand = `${JSON.stringify(process.execPath)} ${JSON.stringify(join(here, "client.mjs"))}`;

/** Per scenario, for the client process; the slowest scenario (sse-retry) needs a few seconds. */
const CLIENT_TIMEOUT_MS = 30_000;
/** For the whole runner process, should it hang after its client is gone. */
const RUNNER_TIMEOUT_MS = 60_000;

function run(cli, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], {
      cwd: options.cwd,
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
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? RUNNER_TIMEOUT_MS);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, output });
    });
  });
}

/** The client scenarios the installed version knows, with their spec versions. */
async function listClientScenarios(cli, specVersion) {
  const { code, output } = await run(cli, [
    "list",
    "--client",
    ...(specVersion ? ["--spec-version", specVersion] : []),
  ]);
  if (code !== 0) throw new Error(`conformance list --client exited ${code}:\n${output}`);
  const scenarios = [];
  for (const line of output.split("\n")) {
    const match = /^\s+-\s+(\S+)\s+\[([^\]]*)\]\s*$/.exec(line);
    if (match) scenarios.push({ name: match[1], specVersions: match[2].split(",").map((v) => v.trim()) });
  }
  if (scenarios.length === 0) throw new Error(`conformance list --client printed no scenarios:\n${output}`);
  return scenarios;
}

async function readChecks(outputDirectory) {
  const entries = await readdir(outputDirectory, { recursive: true });
  const file = entries.find((entry) => entry.endsWith("checks.json"));
  if (file === undefined) return undefined;
  return JSON.parse(await readFile(join(outputDirectory, file), "utf8"));
}

function describeProblems(checks, output) {
  const problems = (checks ?? [])
    .filter((check) => check.status === "FAILURE" || check.status === "WARNING")
    .map((check) => `${check.status} ${check.id}: ${check.errorMessage ?? check.description}`);
  if (/CLIENT TIMED OUT/.test(output)) problems.push("client timed out");
  const exit = /CLIENT EXITED WITH ERROR \(code (\d+)\)/.exec(output);
  if (exit) problems.push(`client exited with code ${exit[1]}`);
  if (problems.length === 0) problems.push(output.trim().split("\n").slice(-3).join(" | "));
  return problems;
}

async function runScenario(cli, scenario, specVersion) {
  const outputDirectory = await mkdtemp(join(tmpdir(), "junction-conformance-"));
  try {
    const started = performance.now();
    const { code, signal, output } = await run(
      cli,
      [
        "client",
        "--command",
        clientCommand,
        "--scenario",
        scenario.name,
        "--timeout",
        String(CLIENT_TIMEOUT_MS),
        "-o",
        outputDirectory,
        ...(specVersion ? ["--spec-version", specVersion] : []),
      ],
      { cwd: here },
    );
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const checks = await readChecks(outputDirectory);
    const passedChecks = checks?.filter((check) => check.status === "SUCCESS").length ?? 0;
    const passed = code === 0 && checks !== undefined;
    return {
      passed,
      seconds,
      passedChecks,
      problems: passed
        ? []
        : describeProblems(checks, signal ? `${output}\nrunner killed by ${signal}` : output),
      output,
    };
  } finally {
    await rm(outputDirectory, { recursive: true, force: true });
  }
}

/** client.mjs runs the built package; say so plainly instead of failing 26 times. */
function assertClientBuilt() {
  const entry = fileURLToPath(import.meta.resolve("@junction/mcp-client"));
  if (!existsSync(entry)) {
    throw new Error(
      `${entry} is missing: build the client first (pnpm --filter "@junction/mcp-client..." build)`,
    );
  }
}

/** The runs, each a conformance CLI, a spec version (or none) and which scenarios it runs. */
async function plan() {
  const alphaAll = await listClientScenarios(ALPHA.cli);
  const alphaNames = new Set(alphaAll.map((scenario) => scenario.name));
  const previous = await listClientScenarios(PREVIOUS.cli);
  return [
    {
      label: "2025-11-25",
      ...ALPHA,
      specVersion: "2025-11-25",
      scenarios: await listClientScenarios(ALPHA.cli, "2025-11-25"),
    },
    {
      label: "2026-07-28",
      ...ALPHA,
      specVersion: "2026-07-28",
      scenarios: await listClientScenarios(ALPHA.cli, "2026-07-28"),
    },
    {
      label: "2025-03-26",
      ...ALPHA,
      specVersion: "2025-03-26",
      scenarios: alphaAll.filter((scenario) => scenario.specVersions.every((v) => v === "2025-03-26")),
    },
    {
      label: "extension",
      ...ALPHA,
      scenarios: alphaAll.filter((scenario) => scenario.specVersions.every((v) => v === "extension")),
    },
    {
      label: `${PREVIOUS.version} (not in ${ALPHA.version})`,
      ...PREVIOUS,
      scenarios: previous.filter((scenario) => !alphaNames.has(scenario.name)),
      covered: previous.filter((scenario) => alphaNames.has(scenario.name)).length,
    },
  ];
}

async function runSuite(suite, wanted) {
  const scenarios =
    wanted.length > 0 ? suite.scenarios.filter((s) => wanted.includes(s.name)) : suite.scenarios;
  const version = suite.specVersion ? ` --spec-version ${suite.specVersion}` : "";
  console.log(
    `\n@modelcontextprotocol/conformance ${suite.version}${version}: ${scenarios.length} client scenarios`,
  );
  if (suite.covered !== undefined)
    console.log(
      `(${suite.covered} other ${suite.version} scenarios run above under the same name, in their ${ALPHA.version} form)`,
    );
  let passed = 0;
  let failed = 0;
  const retried = [];
  for (const scenario of scenarios) {
    let result = await runScenario(suite.cli, scenario, suite.specVersion);
    if (!result.passed) {
      // Some scenarios check timing (sse-retry allows 200 ms of lateness), which a loaded
      // two-core machine can miss. One more attempt, and the first failure is reported below.
      console.log(`RETRY ${scenario.name}: first attempt failed: ${result.problems.join("; ")}`);
      result = await runScenario(suite.cli, scenario, suite.specVersion);
      if (result.passed) retried.push(scenario.name);
    }
    const label = `${scenario.name} [${scenario.specVersions.join(",")}]`;
    if (result.passed) {
      passed += 1;
      console.log(`PASS ${label} (${result.passedChecks} checks, ${result.seconds}s)`);
    } else {
      failed += 1;
      console.log(`FAIL ${label} (${result.seconds}s): ${result.problems.join("; ")}`);
      if (process.env.CONFORMANCE_VERBOSE) console.log(result.output);
    }
  }
  if (retried.length > 0) console.log(`passed only on a second attempt: ${retried.join(", ")}`);
  console.log(`${suite.label}: ${passed}/${scenarios.length} passed`);
  return { label: suite.label, passed, failed };
}

async function main() {
  assertClientBuilt();
  const suites = await plan();
  const wanted = process.argv.slice(2);
  const known = new Set(suites.flatMap((suite) => suite.scenarios.map((scenario) => scenario.name)));
  const unknown = wanted.filter((name) => !known.has(name));
  if (unknown.length > 0) throw new Error(`unknown scenario(s): ${unknown.join(", ")}`);
  console.log(`client under test: ${clientCommand}`);
  const tallies = [];
  for (const suite of suites) tallies.push(await runSuite(suite, wanted));
  const passed = tallies.reduce((sum, tally) => sum + tally.passed, 0);
  const failed = tallies.reduce((sum, tally) => sum + tally.failed, 0);
  console.log(`\n${tallies.map((t) => `${t.label} ${t.passed}/${t.passed + t.failed}`).join(", ")}`);
  console.log(`conformance: ${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

try {
  process.exitCode = await main();
} catch (error) {
  console.error(`conformance: ${error?.message ?? error}`);
  process.exitCode = 2;
}
