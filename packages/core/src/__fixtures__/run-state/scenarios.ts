// The runs behind the stored run-state corpus (`v1-*.json` beside this file): the generator
// (`scripts/make-run-state-fixtures.ts`, against the built package) stops each one and writes its
// state; `run-state-corpus.test.ts` resumes each stored state with today's code. The core API is
// passed in, so both can use this file: the generator with the built package, the test with src.
// Only erasable TypeScript here (Node runs the generator with type stripping). Do not change the
// tools or the key: the stored states bind their digests and signatures.
import type { Agent, annotationPolicy } from "../../index.js";
import type { scriptedModel } from "../../testing/index.js";

/** What a scenario is built from: the core API of the code that runs it. */
export interface CoreAPI {
  Agent: typeof Agent;
  annotationPolicy: typeof annotationPolicy;
  scriptedModel: typeof scriptedModel;
}

/** The fixed test key the signed fixtures are signed with (never a real application's). */
export const FIXTURE_KEY = { id: "fixture-2026-12", secret: "junction run-state corpus key, 32+ bytes" };

/** One stored state: how its run starts and stops, and how it is resumed and ends. */
export interface Scenario {
  /** The file name, without `.json`. */
  file: string;
  signed: boolean;
  /** The user's request that starts the run. */
  request: string;
  /** The model's answers up to the stop. */
  before: unknown[];
  /** The decisions the resume gives, by pending call id. */
  decisions: Record<string, "approve" | "deny">;
  /** The model's answers after the resume. */
  after: unknown[];
  /** The resumed run's answer. */
  text: string;
  /** The tools that run in the resumed part, in order (finished calls are not run again). */
  runsOnResume: string[];
  /** The codes of the warnings the resumed run gives. */
  warnings?: string[];
  /** The deferred tools the state keeps loaded (tool search). */
  loadedTools?: string[];
  /** Many tools, so the tool search defers most of them. */
  manyTools?: boolean;
}

export const scenarios: Scenario[] = [
  {
    file: "v1-unsigned-pending",
    signed: false,
    request: "Tidy my notes",
    before: [{ toolCalls: [{ id: "w1", name: "write_file", input: { path: "/notes/tidy", text: "tidy" } }] }],
    decisions: { w1: "approve" },
    after: [{ text: "Tidied." }],
    text: "Tidied.",
    runsOnResume: ["write_file"],
  },
  {
    file: "v1-signed-pending",
    signed: true,
    request: "Tidy my notes",
    before: [{ toolCalls: [{ id: "w1", name: "write_file", input: { path: "/notes/tidy", text: "tidy" } }] }],
    decisions: { w1: "deny" },
    after: [{ text: "I was not allowed to write." }],
    text: "I was not allowed to write.",
    runsOnResume: [],
  },
  {
    // A step before the stop ran a call; the stopping step ran one call and waits for another.
    file: "v1-signed-finished-calls",
    signed: true,
    request: "Read the notes, then rewrite them",
    before: [
      { toolCalls: [{ id: "r1", name: "read_file", input: { path: "/notes" } }] },
      {
        toolCalls: [
          { id: "r2", name: "read_file", input: { path: "/notes/old" } },
          { id: "w1", name: "write_file", input: { path: "/notes", text: "new" } },
        ],
      },
    ],
    decisions: { w1: "approve" },
    after: [{ text: "Rewritten." }],
    text: "Rewritten.",
    runsOnResume: ["write_file"],
  },
  {
    file: "v1-signed-tool-search",
    signed: true,
    request: "Delete /tmp/x",
    manyTools: true,
    before: [
      { toolCalls: [{ id: "s1", name: "search_tools", input: { query: "delete a file", limit: 1 } }] },
      { toolCalls: [{ id: "d1", name: "delete_file", input: { path: "/tmp/x" } }] },
    ],
    decisions: { d1: "approve" },
    after: [{ text: "Deleted." }],
    text: "Deleted.",
    runsOnResume: ["delete_file"],
    loadedTools: ["delete_file"],
    // Thirty tools do not fit the request: most are left to the search, as when the state was made.
    warnings: ["tools-deferred"],
  },
];

/** A tool that notes its runs. */
function recordingTool(
  name: string,
  options: { description: string; readOnly: boolean; runs: string[]; properties: Record<string, unknown> },
) {
  return {
    name,
    description: options.description,
    inputSchema: { type: "object", properties: options.properties },
    annotations: options.readOnly
      ? { readOnlyHint: true, openWorldHint: false }
      : { destructiveHint: true, openWorldHint: false },
    execute: async (input: unknown) => {
      options.runs.push(name);
      return `${name} ran with ${JSON.stringify(input)}`;
    },
  };
}

/** The scenario's tools: a few file tools, or thirty (so the tool search defers most). */
function toolsOf(scenario: Scenario, runs: string[]) {
  const file = (name: string, description: string, readOnly: boolean) =>
    recordingTool(name, { description, readOnly, runs, properties: { path: { type: "string" }, text: { type: "string" } } });
  const tools = [
    file("read_file", "Reads a file at a path.", true),
    file("write_file", "Writes text to a file at a path.", false),
    file("delete_file", `Deletes a file at a path. ${"Details of its behaviour. ".repeat(12)}`, false),
  ];
  if (!scenario.manyTools) return tools.slice(0, 2);
  for (let index = 0; index < 27; index++) {
    tools.push(
      recordingTool(`misc_${index}`, {
        description: `Miscellaneous helper number ${index}. ${"Filler text. ".repeat(25)}`,
        readOnly: true,
        runs,
        properties: {},
      }),
    );
  }
  return tools;
}

/** The Agent of a scenario, answering with `responses`; its tools note their runs in `runs`. */
export function scenarioAgent(
  core: CoreAPI,
  scenario: Scenario,
  parts: { responses: unknown[]; runs: string[] },
): Agent {
  const provider = core.scriptedModel({
    capabilities: { contextWindowTokens: 20_000 },
    responses: parts.responses as never,
  });
  return new core.Agent({
    provider,
    model: "scripted",
    tools: toolsOf(scenario, parts.runs),
    approval: core.annotationPolicy(),
    ...(scenario.signed ? { runStateKey: FIXTURE_KEY } : {}),
  });
}
