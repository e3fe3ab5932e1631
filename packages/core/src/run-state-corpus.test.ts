import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { FIXTURE_KEY, scenarioAgent, scenarios } from "./__fixtures__/run-state/scenarios.js";
import { Agent, annotationPolicy, parseRunState, verifyRunState } from "./index.js";
import { scriptedModel } from "./testing/index.js";

// The stored run-state corpus: states an earlier Junction wrote (never edited since), each of
// which this one must verify, parse and resume to the same outcome. A format change that cannot
// read one of them needs a migration (run-state.ts), or a refusal that says why.

const core = { Agent, annotationPolicy, scriptedModel };
const folder = new URL("./__fixtures__/run-state/", import.meta.url);

function stored(file: string): unknown {
  return JSON.parse(readFileSync(new URL(`${file}.json`, folder), "utf8"));
}

describe("the stored run-state corpus", () => {
  it("has a scenario for every stored file, and a file for every scenario", () => {
    const files = readdirSync(folder)
      .filter((name) => name.endsWith(".json"))
      .map((name) => name.slice(0, -".json".length))
      .sort();
    expect(files).toEqual(scenarios.map((scenario) => scenario.file).sort());
  });

  it.each(scenarios)("$file verifies, parses and resumes with today's code", async (scenario) => {
    const state = stored(scenario.file);
    const parsed = scenario.signed ? await verifyRunState(state, FIXTURE_KEY) : parseRunState(state);
    expect(parsed.version).toBe(1);
    expect(parsed.pending.map((call) => call.id)).toEqual(Object.keys(scenario.decisions));
    expect(parsed.loadedTools).toEqual(scenario.loadedTools);

    const runs: string[] = [];
    const agent = scenarioAgent(core, scenario, { responses: scenario.after, runs });
    const resumed = await agent.resume({ state, decisions: scenario.decisions }).final;
    expect(resumed.finishReason).toBe("stop");
    expect(resumed.text).toBe(scenario.text);
    expect(resumed.warnings.map((warning) => warning.code)).toEqual(scenario.warnings ?? []);
    expect(runs).toEqual(scenario.runsOnResume);
  });

  it.each(scenarios.filter((scenario) => scenario.signed))(
    "$file is refused once changed, and by an application without its key",
    async (scenario) => {
      const state = stored(scenario.file) as { pending: { input: unknown }[] };
      state.pending[0]!.input = { path: "/" };
      await expect(verifyRunState(state, FIXTURE_KEY)).rejects.toMatchObject({ code: "run-state-invalid" });
      await expect(
        verifyRunState(stored(scenario.file), {
          id: "other",
          secret: "another application's key, 32+ bytes",
        }),
      ).rejects.toMatchObject({ code: "run-state-invalid" });
    },
  );
});
