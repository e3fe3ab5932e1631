import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { MCP } from "@junction/mcp-client";
import { quickjsSandbox } from "@junction/sandbox-quickjs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Agent, annotationPolicy, RUN_PROGRAM } from "../index.js";
import { scriptedModel } from "../testing/index.js";

// End to end, offline: a real MCP server over stdio (an issue tracker that logs every call it
// gets to a file), the real QuickJS sandbox, the scripted model, and a resume in another process.
const folder = mkdtempSync(join(tmpdir(), "junction-code-mode-"));
const serverLog = join(folder, "server.log");
const server = fileURLToPath(new URL("../__fixtures__/counting-server.mjs", import.meta.url));
const resumeScript = fileURLToPath(new URL("../__fixtures__/code-mode-resume.mjs", import.meta.url));
let tracker: MCP;
const sandbox = quickjsSandbox();

beforeAll(async () => {
  tracker = new MCP({ transport: "stdio", command: process.execPath, args: [server, serverLog] });
  await tracker.connect();
}, 30_000);
afterAll(async () => {
  await tracker?.close();
  rmSync(folder, { recursive: true, force: true });
});
beforeEach(() => writeFileSync(serverLog, ""));

const received = () => readFileSync(serverLog, "utf8").trim().split("\n").filter(Boolean);

function agentFor(
  turns: Parameters<typeof scriptedModel>[0],
  tools?: Record<string, "code">,
  programSandbox = sandbox,
) {
  const provider = scriptedModel(turns);
  const agent = new Agent({
    provider,
    model: "m",
    mcps: [{ mcp: tracker, prefix: "tracker" }],
    approval: annotationPolicy(),
    approvalTimeoutMs: 0,
    codeMode: { sandbox: programSandbox, ...(tools ? { tools } : {}) },
  });
  return { agent, provider };
}

const program = (code: string) => ({ toolCalls: [{ id: "prog", name: RUN_PROGRAM, input: { code } }] });
const resultText = (provider: ReturnType<typeof scriptedModel>, request: number) => {
  const output = (
    provider.requests[request]!.messages.at(-1)!.content[0] as { output: { content: { text: string }[] } }
  ).output;
  return output.content.map((part) => part.text).join("");
};

describe("code mode over a real MCP server and the QuickJS sandbox", () => {
  it("a fan-out program: every call reaches the server once, typed by its outputSchema, and only the answer reaches the model", async () => {
    const code = `
      const { issues } = await tools.tracker.list_issues({ limit: 20 });
      const stale = issues.filter((issue: { stale: boolean }) => issue.stale);
      const bodies = await Promise.all(stale.map((issue) => tools.tracker.get_issue({ number: issue.number })));
      return { stale: stale.map((issue) => issue.number), bytes: bodies.join("").length };`;
    // Offered only in code: declared in full, typed by their outputSchema.
    const { agent, provider } = agentFor([program(code), { text: "done" }], {
      tracker_list_issues: "code",
      tracker_get_issue: "code",
    });
    const result = await agent.send("which issues are stale?").final;
    expect(result.text).toBe("done");
    const declared = provider.requests[0]!.tools!.find((tool) => tool.name === RUN_PROGRAM)!.description!;
    expect(declared).toContain("namespace tracker {");
    expect(declared).toContain("function list_issues(input: { limit?: number }): Promise<{ issues: {");
    // close_issue is destructive: a direct call, not declared.
    expect(declared).not.toContain("function close_issue");
    expect(provider.requests[0]!.tools!.map((tool) => tool.name)).toContain("tracker_close_issue");
    expect(provider.requests[0]!.tools!.map((tool) => tool.name)).not.toContain("tracker_list_issues");
    // The reads run at once, so they reach the server in any order: each once.
    expect(received()[0]).toBe("list_issues");
    expect(received().slice(1).sort()).toEqual(
      [2, 4, 6, 8, 10, 12, 14, 16, 18, 20].map((n) => `get_issue ${n}`).sort(),
    );
    const text = resultText(provider, 1);
    expect(text).toMatch(/^Returned: \{"stale":\[2,4,6,8,10,12,14,16,18,20\],"bytes":\d+\}/);
    // The issues' bodies (about 1 KB each) stay out of the conversation.
    expect(text.length).toBeLessThan(1_000);
    expect(text).not.toContain("A long body");
  });

  it("a pause at the third of five calls, resumed in a new process thirty days later: calls 1-2 are not sent again, the approved call runs once, the clock is the first run's, and a second resume is refused", async () => {
    const code = `
      const seen = [];
      for (const n of [1, 2]) seen.push(JSON.parse(await tools.tracker.get_issue({ number: n })).title);
      await tools.tracker.label_issue({ number: 2, label: "stale" });
      for (const n of [3, 4]) seen.push(JSON.parse(await tools.tracker.get_issue({ number: n })).title);
      return { seen, at: Date.now() };`;
    const { agent } = agentFor([program(code)]);
    const stopped = await agent.send("label issue 2").final;
    expect(stopped.finishReason).toBe("approval-required");
    expect(stopped.pending).toMatchObject([
      {
        id: "prog.3",
        name: "tracker_label_issue",
        input: { number: 2, label: "stale" },
        parent: { sequence: 3, program: code },
      },
    ]);
    expect(received()).toEqual(["get_issue 1", "get_issue 2"]);
    const statePath = join(folder, "state.json");
    writeFileSync(statePath, JSON.stringify(stopped.state));
    const claims = join(folder, "claims");
    const run = promisify(execFile);
    const first = await run(process.execPath, [resumeScript, statePath, serverLog, claims], {
      timeout: 60_000,
    });
    const resumed = JSON.parse(first.stdout.trim().split("\n").at(-1)!) as {
      finishReason: string;
      program: { content: { text: string }[] };
    };
    expect(resumed, first.stdout + first.stderr).toMatchObject({ finishReason: "stop" });
    expect(received()).toEqual([
      "get_issue 1",
      "get_issue 2",
      "label_issue 2 stale",
      "get_issue 3",
      "get_issue 4",
    ]);
    const returned = JSON.parse(resumed.program.content[0]!.text.split("\n")[0]!.replace(/^Returned: /, ""));
    expect(returned.seen).toEqual(["Issue 1", "Issue 2", "Issue 3", "Issue 4"]);
    const clock = (stopped.state!.journal["program:1:prog"] as { clockMs: number }).clockMs;
    expect(returned.at).toBe(clock);
    // The same state once more, in another process sharing the claims: refused, nothing sent.
    const second = await run(process.execPath, [resumeScript, statePath, serverLog, claims], {
      timeout: 60_000,
    });
    expect(JSON.parse(second.stdout.trim().split("\n").at(-1)!)).toEqual({ error: "run-state-resumed" });
    expect(received()).toHaveLength(5);
  }, 120_000);

  it("a hostile program is contained: the host goes on, the model reads why it stopped", async () => {
    const { agent, provider } = agentFor([
      program("while (true) {}"),
      program("let a = []; for (;;) a.push('x'.repeat(1e6));"),
      { text: "ok" },
    ]);
    const result = await agent.send("loop").final;
    expect(result.text).toBe("ok");
    expect(resultText(provider, 1)).toContain("stopped by its cpu limit");
    expect(resultText(provider, 2)).toMatch(/stopped by its (memory|cpu) limit/);
    expect(received()).toEqual([]);
  }, 60_000);

  it("on a worker thread: a program held in one long native call is ended at its CPU limit without holding the agent's thread, and a paused program resumes there with its approved call run once", async () => {
    const onWorker = quickjsSandbox({ thread: "worker", limits: { cpuMs: 100 } });
    const paused = `
      const first = JSON.parse(await tools.tracker.get_issue({ number: 1 })).title;
      await tools.tracker.label_issue({ number: 1, label: "stale" });
      return first;`;
    const { agent, provider } = agentFor(
      [program("const x = 7n ** 370000n; for (;;) String(x);"), program(paused), { text: "done" }],
      undefined,
      onWorker,
    );
    let last = performance.now();
    let stallMs = 0;
    const ticks = setInterval(() => {
      stallMs = Math.max(stallMs, performance.now() - last);
      last = performance.now();
    }, 10);
    const stopped = await agent.send("label issue 1").final.finally(() => clearInterval(ticks));
    // One conversion alone holds a thread for seconds: this thread went on meanwhile.
    expect(stallMs).toBeLessThan(1000);
    expect(resultText(provider, 1)).toContain("stopped by its cpu limit");
    if (stopped.finishReason !== "approval-required")
      throw new Error(`expected a question, got ${stopped.finishReason}`);
    expect(stopped.pending).toMatchObject([{ name: "tracker_label_issue", parent: { program: paused } }]);
    const resumed = await agent.resume({
      state: stopped.state,
      decisions: { [stopped.pending[0]!.id]: "approve" },
    }).final;
    expect(resumed.text).toBe("done");
    expect(received()).toEqual(["get_issue 1", "label_issue 1 stale"]);
  }, 60_000);
});
