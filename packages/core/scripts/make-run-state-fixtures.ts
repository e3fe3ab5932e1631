// Writes the stored run-state corpus (src/__fixtures__/run-state/v1-*.json) with the built package:
//   pnpm --filter @junction/core build && node packages/core/scripts/make-run-state-fixtures.ts
// Run it once per format version, commit what it writes, and never edit or rewrite those files:
// they are what an earlier Junction stored, and every later one must still read and resume them
// (run-state-corpus.test.ts). A new version gets new files beside them.
import { existsSync, writeFileSync } from "node:fs";
import { Agent, annotationPolicy } from "@junction/core";
import { scriptedModel } from "@junction/core/testing";
import { scenarioAgent, scenarios } from "../src/__fixtures__/run-state/scenarios.ts";

const core = { Agent, annotationPolicy, scriptedModel };
for (const scenario of scenarios) {
  const path = new URL(`../src/__fixtures__/run-state/${scenario.file}.json`, import.meta.url);
  if (existsSync(path)) {
    console.log(`kept ${scenario.file}.json (stored files are never rewritten)`);
    continue;
  }
  const agent = scenarioAgent(core, scenario, { responses: scenario.before, runs: [] });
  const result = await agent.send(scenario.request).final;
  if (result.finishReason !== "approval-required") {
    throw new Error(`${scenario.file}: the run ended with "${result.finishReason}", not at an approval`);
  }
  writeFileSync(path, `${JSON.stringify(result.state, null, 2)}\n`);
  console.log(`wrote ${scenario.file}.json`);
}
