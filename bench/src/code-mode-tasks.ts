// The code-mode bench's task suite: three fan-out tasks and a one-call control over two real MCP
// servers on stdio (the filesystem server from npm over 20 notes, and the fake issue tracker in
// bench/servers), each scripted the way a model would do it calling tools directly (a call per
// turn, or each wave of independent calls in one turn) and as one program. Written before the
// suite was first measured and not changed to meet a target; the fixtures come from fixed seeds
// (bench/servers/fixture-text.mjs, issue-tracker-data.mjs).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { notes } from "../servers/fixture-text.mjs";
import { TODAY, trackerIssues } from "../servers/issue-tracker-data.mjs";

/** One tool call a scripted model makes: the tool's name with its server's prefix (`fs_read_text_file`). */
export interface ScriptedCall {
  tool: string;
  input: Record<string, unknown>;
}

/**
 * How a program names a tool and reads a result in one framework: Junction declares MCP tools as
 * `tools.<prefix>.<tool>` and hands a program the structured content (else the text); the AI SDK
 * declares `tools.<name>` and hands it the MCP result (`{ content: [...] }`).
 */
export interface ProgramDialect {
  /** `fs.read_text_file` → the function the program calls. */
  tool(path: `${string}.${string}`): string;
  /** Source defining `text(result)`: a file-server result's text, or a tracker result's JSON text. */
  prelude: string;
}

export const JUNCTION_DIALECT: ProgramDialect = {
  tool: (path) => `tools.${path}`,
  prelude:
    'const text = (result) => typeof result === "string" ? result : typeof result.content === "string" ? result.content : result.content.map((part) => part.text).join("");',
};

export const AI_SDK_DIALECT: ProgramDialect = {
  tool: (path) => `tools.${path.replace(".", "_")}`,
  prelude:
    'const text = (result) => typeof result === "string" ? result : result.content.map((part) => part.text).join("");',
};

export interface CodeModeTask {
  name: string;
  /** What the user asks. */
  prompt: string;
  kind: "fan-out" | "control";
  /** The calls made calling tools directly, in waves: a wave's calls need only earlier waves' results. */
  waves: ScriptedCall[][];
  /** The same work as one program (fan-out tasks); the control has none (the model calls directly). */
  program?: (dialect: ProgramDialect) => string;
  /** The model's closing answer, the same in every variant. */
  answer: string;
  /** Issues that must carry the `stale` label afterwards (checked on the tracker). */
  expectStale?: number[];
}

/** The two servers, and where their fixtures are. */
export interface TaskServers {
  notesDir: string;
  /** The filesystem server's command, serving `notesDir`. */
  filesystem: { command: string; args: string[] };
  tracker: { command: string; args: string[] };
  cleanup(): void;
}

const require = createRequire(import.meta.url);

/** Writes the 20 notes to a new temporary directory and names both servers' commands. */
export function taskServers(): TaskServers {
  const root = mkdtempSync(join(tmpdir(), "junction-code-mode-"));
  const notesDir = join(root, "notes");
  mkdirSync(notesDir);
  for (const note of notes()) writeFileSync(join(notesDir, note.name), note.text);
  return {
    notesDir,
    filesystem: {
      command: process.execPath,
      args: [require.resolve("@modelcontextprotocol/server-filesystem/dist/index.js"), notesDir],
    },
    tracker: {
      command: process.execPath,
      args: [fileURLToPath(new URL("../servers/issue-tracker-server.mjs", import.meta.url))],
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

const DAY_MS = 24 * 3600 * 1000;

/** The suite, over the notes in `notesDir`. */
export function codeModeTasks(notesDir: string): CodeModeTask[] {
  const allNotes = notes();
  const openingOf = (text: string) => (text.split("\n\n")[1] ?? "").split(". ")[0];
  const titleOf = (text: string) => (text.split("\n")[0] ?? "").replace(/^# /, "");
  const issues = trackerIssues();
  const open = issues.filter((issue) => issue.state === "open").sort((a, b) => b.number - a.number);
  const cutoff = Date.parse(TODAY) - 90 * DAY_MS;
  const stale = open.filter((issue) => Date.parse(issue.updated_at) < cutoff).map((issue) => issue.number);
  const fixed = open.filter((issue) => issue.comments.some((comment) => /^Fixed in #\d+/.test(comment.body)));
  const control = allNotes[6]!;

  return [
    {
      name: "summarize 20 notes",
      kind: "fan-out",
      prompt: `Read every note in ${notesDir} and give me a one-line summary of each.`,
      waves: [
        [{ tool: "fs_list_directory", input: { path: notesDir } }],
        allNotes.map((note) => ({ tool: "fs_read_text_file", input: { path: join(notesDir, note.name) } })),
      ],
      program: (d) =>
        [
          d.prelude,
          `const dir = ${JSON.stringify(notesDir)};`,
          `const listing = text(await ${d.tool("fs.list_directory")}({ path: dir }));`,
          'const names = listing.split("\\n").filter((line) => line.startsWith("[FILE] ")).map((line) => line.slice(7));',
          `const bodies = await Promise.all(names.map((name) => ${d.tool("fs.read_text_file")}({ path: dir + "/" + name }).then(text)));`,
          "return names.map((name, index) => {",
          '  const [heading, first] = bodies[index].split("\\n\\n");',
          '  return { name, title: heading.replace(/^# /, ""), words: bodies[index].split(/\\s+/).length, opening: first.split(". ")[0] };',
          "});",
        ].join("\n"),
      answer: allNotes
        .map((note) => `${note.name}: ${titleOf(note.text)}. ${openingOf(note.text)}.`)
        .join("\n"),
    },
    {
      name: "label every stale issue",
      kind: "fan-out",
      prompt: `Today is ${TODAY.slice(0, 10)}. Label every open issue that has not been updated in the last 90 days "stale".`,
      waves: [
        [{ tool: "tracker_list_issues", input: { state: "open", per_page: 100 } }],
        stale.map((number) => ({ tool: "tracker_add_labels", input: { number, labels: ["stale"] } })),
      ],
      program: (d) =>
        [
          d.prelude,
          `const issues = JSON.parse(text(await ${d.tool("tracker.list_issues")}({ state: "open", per_page: 100 })));`,
          `const cutoff = Date.parse(${JSON.stringify(TODAY)}) - 90 * 24 * 3600 * 1000;`,
          "const stale = issues.filter((issue) => Date.parse(issue.updated_at) < cutoff);",
          `await Promise.all(stale.map((issue) => ${d.tool("tracker.add_labels")}({ number: issue.number, labels: ["stale"] })));`,
          "return { labelled: stale.map((issue) => issue.number) };",
        ].join("\n"),
      answer: `I labelled ${stale.length} issues "stale": ${stale.map((number) => `#${number}`).join(", ")}.`,
      expectStale: stale,
    },
    {
      name: "find open issues already fixed",
      kind: "fan-out",
      prompt:
        "Which open issues have a comment saying they were already fixed? List them with the fix so I can close them.",
      waves: [
        [{ tool: "tracker_list_issues", input: { state: "open", per_page: 100 } }],
        open.map((issue) => ({ tool: "tracker_get_issue", input: { number: issue.number } })),
      ],
      program: (d) =>
        [
          d.prelude,
          `const issues = JSON.parse(text(await ${d.tool("tracker.list_issues")}({ state: "open", per_page: 100 })));`,
          `const full = await Promise.all(issues.map((issue) => ${d.tool("tracker.get_issue")}({ number: issue.number }).then((result) => JSON.parse(text(result)))));`,
          "return full.flatMap((issue) => {",
          "  const fix = issue.comments.find((comment) => /^Fixed in #\\d+/.test(comment.body));",
          '  return fix ? [{ number: issue.number, title: issue.title, fix: fix.body.split(".")[0] }] : [];',
          "});",
        ].join("\n"),
      answer: [
        `${fixed.length} open issues say they were fixed:`,
        ...fixed.map((issue) => {
          const fix = issue.comments.find((comment) => /^Fixed in #\d+/.test(comment.body))!;
          return `- #${issue.number} ${issue.title}: ${fix.body.split(".")[0]}`;
        }),
      ].join("\n"),
    },
    {
      name: "one call: read one note",
      kind: "control",
      prompt: `What is ${control.name} in ${notesDir} about?`,
      waves: [[{ tool: "fs_read_text_file", input: { path: join(notesDir, control.name) } }]],
      answer: `${control.name} is the ${titleOf(control.text)} note. It opens: ${openingOf(control.text)}.`,
    },
  ];
}

/** How the model calls tools directly: one call per turn, or every call of a wave in one turn. */
export type DirectStyle = "call per turn" | "wave per turn";

/** The direct variant's model turns: the tool calls of each turn, then the answer. */
export function directTurns(task: CodeModeTask, style: DirectStyle): ScriptedCall[][] {
  return style === "wave per turn" ? task.waves : task.waves.flat().map((call) => [call]);
}
