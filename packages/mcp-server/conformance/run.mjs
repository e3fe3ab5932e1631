#!/usr/bin/env node
// The strict conformance runner: every server scenario of the pinned @modelcontextprotocol/conformance
// (0.2.0-alpha.12) at every spec version it lists for it, and each extension scenario once, run one
// by one (`--scenario X --spec-version V`) against conformance/server.mjs (built with the package's
// public API, from dist), and against an anchor: the official SDK v2's own conformance server, when
// MCP_SDK_CONFORMANCE_SERVER names it (see startAnchor). Then the previous stable pin (0.1.16)'s
// whole suite as a section of its own.
//
//   node conformance/run.mjs            every run, the table, the previous pin
//   node conformance/run.mjs --smoke    a handful of runs (CI), no anchor, no previous pin
//   node conformance/run.mjs --only <text>   the runs whose scenario name contains <text>
//
// The verdict is the suite's strictest: each run goes with an empty `--expected-failures` baseline,
// under which the suite fails a scenario on any FAILURE or WARNING check. A run PASSes only when
// the CLI exits 0 and the checks it saved (`-o`) have no FAILURE or WARNING and at least one
// SUCCESS of the scenario's own (`wire-schema-valid`, added to every run, does not count); it is a
// SKIP when the suite skipped every check of the scenario (what it tests is not served), which
// counts as not passed. Closing line (scripts/run.sh adds it up): `conformance: N passed, M failed`.

import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { availableParallelism, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
function conformance(packageName) {
  const manifest = require.resolve(`${packageName}/package.json`);
  const { version, bin } = require(manifest);
  return { version, cli: join(dirname(manifest), typeof bin === "string" ? bin : bin.conformance) };
}
const SUITE = conformance("@modelcontextprotocol/conformance");
const PREVIOUS = conformance("@modelcontextprotocol/conformance-legacy");
const EXTENSION = "extension";
const COLUMNS = ["2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28", EXTENSION];
/** Scenarios run at once against one server (the suite's scenarios each open their own sessions). */
const PARALLEL = Math.min(4, Math.max(3, availableParallelism()));
const RUN_TIMEOUT_MS = 120_000;
const PREVIOUS_TIMEOUT_MS = 600_000;

/**
 * Runs known to fail, `scenario` or `scenario@version`, with why. They print as FAIL and count as
 * failed in the closing line; only a failure not listed here makes the exit code non-zero, and so
 * does a listed run that passes (the entry is stale: remove it).
 */
const KNOWN_FAILURES = new Map([]);
/**
 * Runs the suite itself cannot score: it skips every check of them whatever the server does.
 * They print as SKIP and are left out of the closing line; one that passes or fails is named.
 */
const NOT_SCORABLE = new Map([
  [
    "tasks-status-notifications",
    "the pinned suite skips all of it (its harness waits for the subscriptions/listen rewrite)",
  ],
]);
/** `--smoke`: one run of each kind Junction serves, for CI. */
const SMOKE = [
  ["server-session-lifecycle", "2025-03-26"],
  ["tools-call-simple-text", "2025-11-25"],
  ["tools-call-elicitation", "2025-11-25"],
  ["resources-subscribe", "2025-11-25"],
  ["tools-call-simple-text", "2026-07-28"],
  ["input-required-result-multiple-input-requests", "2026-07-28"],
  ["input-required-result-non-tool-request", "2026-07-28"],
  ["server-sse-polling", "2025-11-25"],
  ["sep-2640-skills-manifest", "extension"],
  ["tasks-lifecycle", "extension"],
];

const argv = process.argv.slice(2);
const smoke = argv.includes("--smoke");
const onlyIndex = argv.indexOf("--only");
const only = onlyIndex >= 0 ? argv[onlyIndex + 1] : undefined;

/** Runs a Node script; resolves with its exit code and everything it printed. */
function run(script, args, timeoutMs) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], {
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
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output, timedOut });
    });
  });
}

/** The suite's server scenarios and the spec versions it lists for each (`list --server`). */
async function listRuns() {
  const { output } = await run(SUITE.cli, ["list", "--server"], 60_000);
  const runs = [];
  for (const line of output.split("\n")) {
    const match = /^\s*-\s+(\S+)\s+\[([^\]]+)\]/.exec(line);
    if (!match) continue;
    for (const version of match[2].split(",").map((listed) => listed.trim())) {
      if (!COLUMNS.includes(version)) {
        throw new Error(
          `\`conformance list --server\` lists ${match[1]} at ${version}, which the table has no column for: add it to COLUMNS.`,
        );
      }
      runs.push({ scenario: match[1], version });
    }
  }
  if (runs.length === 0) throw new Error(`\`conformance list --server\` listed no scenarios:\n${output}`);
  return runs;
}

/**
 * Starts a server script; resolves with its URL once a line of its stdout matches `listening`
 * (whose first group is the URL).
 */
function startServer(script, { args = [], env = {}, listening = /^(\S+)$/ } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let buffered = "";
    const onData = (chunk) => {
      buffered += chunk;
      for (const line of buffered.split("\n").slice(0, -1)) {
        const match = listening.exec(line.trim());
        if (!match) continue;
        child.stdout.off("data", onData);
        child.stdout.resume();
        resolve({ child, url: match[1].replace("127.0.0.1", "localhost") });
        return;
      }
    };
    child.stdout.on("data", onData);
    child.on("exit", (code) => reject(new Error(`${script} exited with ${code} before it listened`)));
  });
}

/** The checks a run saved under `directory` (`<dir>/server-<scenario>-<time>/checks.json`). */
async function savedChecks(directory) {
  const checks = [];
  for (const entry of await readdir(directory, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const file = join(directory, entry.name, "checks.json");
    checks.push(...JSON.parse(await readFile(file, "utf8").catch(() => "[]")));
  }
  return checks;
}

/** One scenario at one version against `url`, with the strict verdict. */
async function runScenario(url, { scenario, version }, baseline) {
  const directory = await mkdtemp(join(tmpdir(), "junction-conformance-"));
  try {
    const args = ["server", "--url", url, "--scenario", scenario, "-o", directory];
    // An extension scenario is on no spec timeline: the CLI skips it at any `--spec-version` and
    // runs it at the revision the extension is for (2026-07-28) without one.
    if (version !== EXTENSION) args.push("--spec-version", version);
    args.push("--expected-failures", baseline);
    const { code, output, timedOut } = await run(SUITE.cli, args, RUN_TIMEOUT_MS);
    if (/^SKIPPED: scenario/m.test(output))
      return { verdict: "SKIP", reasons: [firstLine(output, /^SKIPPED/m)] };
    const checks = await savedChecks(directory);
    const bad = checks.filter((check) => check.status === "FAILURE" || check.status === "WARNING");
    // `wire-schema-valid` rides every run (the messages the server sent were valid): it says
    // nothing of the scenario, so a run whose own checks were all skipped is a SKIP, not a PASS.
    const own = checks.filter((check) => !RIDES_EVERY_RUN.has(check.id));
    const succeeded = own.filter((check) => check.status === "SUCCESS").length;
    const skipped = own.filter((check) => check.status === "SKIPPED");
    const reasons = bad.map(
      (check) => `${check.status} ${check.name}: ${check.errorMessage ?? check.description}`,
    );
    if (timedOut) reasons.unshift(`the CLI did not finish within ${RUN_TIMEOUT_MS} ms`);
    else if (checks.length === 0) reasons.unshift(`no checks saved; the CLI said: ${tail(output)}`);
    else if (code !== 0 && bad.length === 0) reasons.unshift(`the CLI exited with ${code}: ${tail(output)}`);
    if (code === 0 && !timedOut && bad.length === 0 && succeeded === 0 && skipped.length > 0) {
      const why = [...new Set(skipped.map((check) => check.description ?? check.details?.message))];
      return { verdict: "SKIP", reasons: [`every check of the scenario was skipped: ${why.join("; ")}`] };
    }
    if (succeeded === 0 && reasons.length === 0) reasons.push("no check of the scenario succeeded");
    const pass = code === 0 && !timedOut && bad.length === 0 && succeeded > 0;
    return {
      verdict: pass ? "PASS" : "FAIL",
      reasons,
      skipped: skipped.map((check) => check.name ?? check.id),
    };
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/** Checks the suite adds to every run, whatever the scenario. */
const RIDES_EVERY_RUN = new Set(["wire-schema-valid"]);
const firstLine = (output, pattern) => output.split("\n").find((line) => pattern.test(line)) ?? "";
const tail = (output) => output.trim().split("\n").slice(-3).join(" | ");

/** Runs every run against `url`, `PARALLEL` at a time; resolves with the results by key. */
async function runAll(url, runs, baseline) {
  const results = new Map();
  let next = 0;
  const worker = async () => {
    while (next < runs.length) {
      const spec = runs[next++];
      results.set(keyOf(spec), await runScenario(url, spec, baseline));
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  return results;
}

const keyOf = ({ scenario, version }) => `${scenario}@${version}`;

function knownFailure({ scenario, version }) {
  return KNOWN_FAILURES.get(`${scenario}@${version}`) ?? KNOWN_FAILURES.get(scenario);
}

/** The table: a row per scenario, a column per spec version (`-` where the suite has no run). */
function printTable(title, runs, results) {
  const scenarios = [...new Set(runs.map((spec) => spec.scenario))];
  const width = Math.max(...scenarios.map((name) => name.length), 8);
  const header = ["scenario".padEnd(width), ...COLUMNS.map((column) => column.padEnd(10))].join("  ");
  console.log(`\n${title}\n${header}\n${"-".repeat(header.length)}`);
  for (const scenario of scenarios) {
    const cells = COLUMNS.map((version) =>
      (results.get(`${scenario}@${version}`)?.verdict ?? "-").padEnd(10),
    );
    console.log([scenario.padEnd(width), ...cells].join("  "));
  }
}

function tally(results) {
  const counts = { PASS: 0, FAIL: 0, SKIP: 0 };
  for (const { verdict } of results.values()) counts[verdict] += 1;
  return counts;
}

/**
 * The anchor: the SDK v2's own conformance server (typescript-sdk `test/conformance/src/everythingServer.ts`).
 * No npm package ships it (`@modelcontextprotocol/server` has no examples, the conformance package
 * only its own scenario servers, and `@modelcontextprotocol/server-everything` is the servers repo's
 * demo on SDK v1, not the SDK's conformance server), so it runs from a build named by
 * `MCP_SDK_CONFORMANCE_SERVER` (a Node script; it listens on `PORT` and prints its endpoint), when set.
 */
async function startAnchor() {
  const script = process.env.MCP_SDK_CONFORMANCE_SERVER;
  if (!script) {
    return {
      why: "not run: no installed package ships the SDK v2's conformance server (typescript-sdk test/conformance/src/everythingServer.ts); set MCP_SDK_CONFORMANCE_SERVER to its built script to run it",
    };
  }
  const port = await freePort();
  return startServer(script, {
    env: { PORT: String(port) },
    listening: /^\s*- MCP endpoint: (http:\/\/\S+)/,
  });
}

/** A port free now (the anchor takes its port from `PORT`, not 0). */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "localhost", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** The previous stable pin's whole suite in one run: a line per scenario from its summary. */
async function runPrevious(url) {
  const directory = await mkdtemp(join(tmpdir(), "junction-conformance-previous-"));
  const { output } = await run(PREVIOUS.cli, ["server", "--url", url, "-o", directory], PREVIOUS_TIMEOUT_MS);
  const checks = new Map();
  for (const entry of await readdir(directory, { withFileTypes: true })) {
    const name = /^server-(.+)-\d{4}-\d{2}-\d{2}T/.exec(entry.name)?.[1];
    if (name)
      checks.set(name, JSON.parse(await readFile(join(directory, entry.name, "checks.json"), "utf8")));
  }
  await rm(directory, { recursive: true, force: true });
  if (checks.size === 0) return { passed: 0, failed: 1, lines: [`no results: ${tail(output)}`] };
  let passed = 0;
  const lines = [];
  for (const [name, list] of checks) {
    const bad = list.filter((check) => check.status === "FAILURE" || check.status === "WARNING");
    const ok = bad.length === 0 && list.some((check) => check.status === "SUCCESS");
    if (ok) passed += 1;
    lines.push(`${ok ? "PASS" : "FAIL"} ${name}`);
    for (const check of bad)
      lines.push(`       ${check.status} ${check.name}: ${check.errorMessage ?? check.description}`);
  }
  return { passed, failed: checks.size - passed, lines };
}

let runs = await listRuns();
if (smoke)
  runs = runs.filter(({ scenario, version }) => SMOKE.some(([s, v]) => s === scenario && v === version));
if (only) runs = runs.filter(({ scenario }) => scenario.includes(only));
const baselineDirectory = await mkdtemp(join(tmpdir(), "junction-conformance-baseline-"));
const baseline = join(baselineDirectory, "expected-failures.yaml");
await writeFile(baseline, "server: []\n");

const byVersion = Object.fromEntries(
  COLUMNS.map((column) => [column, runs.filter((spec) => spec.version === column).length]),
);
console.log(
  `@modelcontextprotocol/conformance ${SUITE.version}: ${runs.length} runs (${COLUMNS.map((column) => `${byVersion[column]} at ${column}`).join(", ")}), ${PARALLEL} at a time, strict (an empty baseline: a FAILURE or WARNING check fails the run)`,
);

const fixture = await startServer(join(here, "server.mjs"), { args: ["0"] });
let junction;
let previous;
try {
  junction = await runAll(fixture.url, runs, baseline);
  if (!smoke && !only) previous = await runPrevious(fixture.url);
} finally {
  fixture.child.kill("SIGTERM");
}

let anchorResults;
let anchorWhy;
if (!smoke) {
  const anchor = await startAnchor();
  if (anchor.why) anchorWhy = anchor.why;
  else {
    try {
      anchorResults = await runAll(anchor.url, runs, baseline);
    } finally {
      anchor.child.kill("SIGTERM");
    }
  }
}
await rm(baselineDirectory, { recursive: true, force: true });

printTable("Junction (conformance/server.mjs)", runs, junction);
const counts = tally(junction);
console.log(
  `Junction: ${counts.PASS} passed, ${counts.FAIL} failed, ${counts.SKIP} skipped of ${runs.length} runs`,
);
if (anchorResults) {
  printTable("Anchor: the SDK v2's conformance server (everythingServer)", runs, anchorResults);
  const anchorCounts = tally(anchorResults);
  console.log(
    `Anchor: ${anchorCounts.PASS} passed, ${anchorCounts.FAIL} failed, ${anchorCounts.SKIP} skipped of ${runs.length} runs`,
  );
} else if (!smoke) {
  console.log(`\nAnchor: the SDK v2's conformance server: ${anchorWhy}`);
}

let unexpected = 0;
let unscored = 0;
console.log("\nJunction's runs that did not pass:");
for (const spec of runs) {
  const result = junction.get(keyOf(spec));
  const notScorable = NOT_SCORABLE.get(spec.scenario);
  if (notScorable) {
    if (result.verdict === "SKIP") {
      unscored += 1;
      console.log(`  SKIP ${keyOf(spec)} (not scorable: ${notScorable})`);
    } else {
      unexpected += 1;
      console.log(`  ${result.verdict} ${keyOf(spec)} is scored now: remove it from NOT_SCORABLE`);
    }
    continue;
  }
  const known = knownFailure(spec);
  if (result.verdict === "PASS") {
    if (known) {
      unexpected += 1;
      console.log(`  ${keyOf(spec)} passes but is listed as a known failure: remove it from KNOWN_FAILURES`);
    }
    continue;
  }
  if (!known) unexpected += 1;
  console.log(`  ${result.verdict} ${keyOf(spec)}${known ? ` (known: ${known})` : ""}`);
  for (const reason of result.reasons.slice(0, 4)) console.log(`      ${reason}`);
}
const partly = runs.filter((spec) => junction.get(keyOf(spec)).skipped?.length);
if (partly.length > 0) {
  console.log(
    "\nChecks the suite skipped within runs that passed or failed otherwise (not applicable to the server):",
  );
  for (const spec of partly) console.log(`  ${keyOf(spec)}: ${junction.get(keyOf(spec)).skipped.join(", ")}`);
}

// A run the suite skipped because the server does not serve what it tests is no pass: it counts
// as failed here. The runs no server can get scored (NOT_SCORABLE) are left out.
let passed = counts.PASS;
let failed = counts.FAIL + counts.SKIP - unscored;
if (previous) {
  console.log(
    `\n@modelcontextprotocol/conformance ${PREVIOUS.version} (the previous stable pin, its whole suite):`,
  );
  for (const line of previous.lines) console.log(`  ${line}`);
  console.log(`${PREVIOUS.version}: ${previous.passed} passed, ${previous.failed} failed`);
  passed += previous.passed;
  failed += previous.failed;
  unexpected += previous.failed;
}

console.log(`\nconformance: ${passed} passed, ${failed} failed`);
if (unexpected > 0) console.log(`${unexpected} failure(s) not in the known list (or stale entries in it)`);
process.exitCode = unexpected === 0 ? 0 : 1;
