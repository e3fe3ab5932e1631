// Provider-native code mode (`codeMode: { sandbox: "provider" }`) over an MCP source: the ledger
// server of tooling/durable-engines, a real MCP server over stdio that writes a line per call it
// receives. Its tools go out with the vendor's callers (Anthropic's `allowed_callers`, OpenAI's
// programmatic callers); a program's call that needs a person pauses the run, the plain JSON
// RunState is resumed by a new Agent on a new connection, and every call reaches the server once.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  Agent,
  type AgentConfig,
  type PendingCallParent,
  parseRunState,
  type RunState,
} from "@junction/core";
import { type LedgerCall, ledgerCalls } from "@junction/durable-engines/agent-scenario";
import { MCP } from "@junction/mcp-client";
import { anthropic } from "@junction/provider-anthropic";
import { openai } from "@junction/provider-openai";
import {
  anthropicEvent,
  anthropicStream,
  anthropicText,
  anthropicToolUse,
  responsesMessage,
  responsesStream,
  startWireFake,
  type WireFake,
} from "@junction/wire-fake";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const ledgerServer = fileURLToPath(
  new URL("../tooling/durable-engines/test-servers/ledger-server.mjs", import.meta.url),
);

let fake: WireFake;
let folder: string;
let callsFile: string;
const opened: MCP[] = [];
beforeEach(async () => {
  fake = await startWireFake();
  folder = await mkdtemp(join(tmpdir(), "junction-provider-code-mode-"));
  callsFile = join(folder, "calls.jsonl");
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((mcp) => mcp.close()));
  await fake.close();
  await rm(folder, { recursive: true, force: true });
});

/** A new connection to the ledger server (a new process each time), closed after the test. */
async function ledger(): Promise<MCP> {
  const mcp = new MCP({
    transport: "stdio",
    command: process.execPath,
    args: [ledgerServer],
    env: { CALLS_FILE: callsFile },
    reconnect: false,
  });
  opened.push(mcp);
  await mcp.connect();
  return mcp;
}

/** The ledger's two tools, a program's only; publishing asks a person, appending does not. */
async function ledgerAgent(provider: AgentConfig["provider"], model: string): Promise<Agent> {
  return new Agent({
    provider,
    model,
    mcps: [{ prefix: "ledger", mcp: await ledger() }],
    approval: (request) => (request.name === "ledger_publish_entry" ? "ask" : "approve"),
    // Two tools: fewer than code mode's default minimum.
    codeMode: { sandbox: "provider", tools: { "ledger_*": "code" }, minTools: 1 },
  });
}

/**
 * The stored state, as JSON, keeps the pending call's program: read back, it has the same
 * `parent`; the new Agent that resumes it (on a new connection) refuses a copy whose program
 * source was rewritten, naming the field, before anything reaches the server or the model.
 * Returns the state as read from JSON, for that Agent to resume.
 */
async function storedWithProgram(
  resumer: Agent,
  stopped: RunState | undefined,
  parent: PendingCallParent,
): Promise<RunState> {
  const json = JSON.stringify(stopped);
  expect(parseRunState(json).pending.map((call) => call.parent)).toEqual([parent]);
  const requests = fake.requests.length;
  const calls = received().length;
  const forged = JSON.parse(json) as RunState;
  forged.pending[0]!.parent!.program = "await tools.ledger_publish_entry({ entry: 666, clock: 7 });";
  const decisions = { [forged.pending[0]!.id]: "approve" as const };
  await expect(resumer.resume({ state: forged, decisions }).final).rejects.toMatchObject({
    code: "run-state-invalid",
    message: expect.stringContaining(
      `\`pending[0].parent.program\` is not the source of program ${parent.id}`,
    ),
  });
  expect(fake.requests).toHaveLength(requests);
  expect(received()).toHaveLength(calls);
  return JSON.parse(json) as RunState;
}

/** What the server received, without the idempotency key (each call's own). */
const received = () =>
  ledgerCalls(callsFile).map(({ tool, entry, clock }: LedgerCall) => ({ tool, entry, clock }));

describe("Anthropic programmatic tool calling on an MCP source", () => {
  const model = "claude-sonnet-4-6";
  const CODE = "code_execution_20250825";
  const caller = { type: CODE, tool_id: "srvtoolu_code1" };
  const container = { id: "container_ledger", expires_at: "2026-12-02T09:00:00Z" };
  const provider = () => anthropic({ apiKey: "test-key", baseURL: fake.url, maxRetries: 0 });
  const SOURCE = "append, then publish";

  const appends = {
    chunks: anthropicStream({
      id: "msg_1",
      model,
      blocks: [
        {
          start: { type: "server_tool_use", id: "srvtoolu_code1", name: "code_execution", input: {} },
          deltas: [{ type: "input_json_delta", partial_json: JSON.stringify({ code: SOURCE }) }],
        },
        anthropicToolUse(
          { id: "toolu_append", name: "ledger_append_entry", caller },
          '{"entry":1,"clock":7}',
        ),
      ],
      stopReason: "tool_use",
      delta: { container },
    }),
  };
  const publishes = {
    chunks: [
      anthropicEvent("message_start", {
        message: {
          id: "msg_2",
          type: "message",
          role: "assistant",
          model,
          content: [
            {
              type: "tool_use",
              id: "toolu_publish",
              name: "ledger_publish_entry",
              input: { entry: 2, clock: 7 },
              caller,
            },
          ],
          container,
          stop_reason: "tool_use",
          stop_sequence: null,
          usage: { input_tokens: 50, output_tokens: 1 },
        },
      }),
      anthropicEvent("message_stop"),
    ],
  };
  const finishes = {
    chunks: anthropicStream({
      id: "msg_3",
      model,
      blocks: [
        {
          start: {
            type: "code_execution_tool_result",
            tool_use_id: "srvtoolu_code1",
            content: { type: "code_execution_result", stdout: "", stderr: "", return_code: 0, content: [] },
          },
        },
        anthropicText("Appended 1, published 2."),
      ],
      stopReason: "end_turn",
    }),
  };

  it("offers the MCP tools to programs only, pauses the program's gated call, and a new Agent resumes the JSON state with the call run once", async () => {
    fake.enqueue(appends, publishes);
    const first = await (await ledgerAgent(provider(), model)).send("Append 1 and publish 2.", {
      approvalTimeoutMs: 0,
    }).final;
    expect(fake.requests[0]!.body.tools).toEqual([
      expect.objectContaining({ name: "ledger_append_entry", allowed_callers: [CODE] }),
      expect.objectContaining({ name: "ledger_publish_entry", allowed_callers: [CODE] }),
      { type: CODE, name: "code_execution" },
    ]);
    expect(first.finishReason).toBe("approval-required");
    expect((first.pending ?? []).map(({ id, name, input }) => ({ id, name, input }))).toEqual([
      { id: "toolu_publish", name: "ledger_publish_entry", input: { entry: 2, clock: 7 } },
    ]);
    // The ungated call ran; the gated one did not reach the server.
    expect(received()).toEqual([{ tool: "append_entry", entry: 1, clock: 7 }]);
    // The card's program: the code execution call of turn 1, with exactly the code the wire sent.
    const parent: PendingCallParent = {
      id: "srvtoolu_code1",
      name: CODE,
      // Its second call: append ran in the turn before.
      sequence: 2,
      program: SOURCE,
      runtime: "provider",
    };
    expect(first.pending?.[0]?.parent).toEqual(parent);
    const resumer = await ledgerAgent(provider(), model);
    const state = await storedWithProgram(resumer, first.state, parent);

    fake.enqueue(finishes);
    const resumed = await resumer.resume({
      state,
      decisions: { toolu_publish: "approve" },
    }).final;
    expect(resumed.finishReason).toBe("stop");
    expect(resumed.text).toBe("Appended 1, published 2.");
    expect(received()).toEqual([
      { tool: "append_entry", entry: 1, clock: 7 },
      { tool: "publish_entry", entry: 2, clock: 7 },
    ]);
    // The server's answer went back to the container as the call's tool_result.
    const third = fake.requests[2]!.body;
    expect(third.container).toBe(container.id);
    expect(third.messages.at(-1)).toEqual({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_publish",
          content: [{ type: "text", text: "entry 2 recorded by publish_entry" }],
        },
      ],
    });
  });

  it("a second resume of the same state is refused, and the approved call reached the server once", async () => {
    fake.enqueue(appends, publishes);
    const first = await (await ledgerAgent(provider(), model)).send("Append 1 and publish 2.", {
      approvalTimeoutMs: 0,
    }).final;
    const state = JSON.parse(JSON.stringify(first.state)) as RunState;
    fake.enqueue(finishes);
    const resume = async () =>
      (await ledgerAgent(provider(), model)).resume({ state, decisions: { toolu_publish: "approve" } }).final;
    expect((await resume()).finishReason).toBe("stop");
    await expect(resume()).rejects.toMatchObject({ code: "run-state-resumed" });
    expect(received().filter((call) => call.tool === "publish_entry")).toHaveLength(1);
  });
});

describe("OpenAI programmatic tool calling on an MCP source", () => {
  const model = "gpt-5.6";
  const provider = () => openai({ apiKey: "sk-test", baseURL: `${fake.url}/v1`, maxRetries: 0 });
  const program = {
    id: "prog_ledger",
    type: "program",
    call_id: "call_prog",
    code: "await tools.ledger_append_entry({ entry: 1, clock: 7 });\nawait tools.ledger_publish_entry({ entry: 2, clock: 7 });",
    fingerprint: "fp_opaque",
  };
  const caller = { type: "program", caller_id: program.call_id };
  const functionCall = (id: string, name: string, input: unknown) => ({
    id: `fc_${id}`,
    type: "function_call",
    status: "completed",
    call_id: `call_${id}`,
    name,
    arguments: JSON.stringify(input),
    caller,
  });

  it("offers the MCP tools to programs only, pauses the program's gated call, and a new Agent resumes the JSON state with the call run once", async () => {
    fake.enqueue(
      {
        chunks: responsesStream({
          id: "resp_1",
          model,
          output: [program, functionCall("append", "ledger_append_entry", { entry: 1, clock: 7 })],
        }),
      },
      {
        chunks: responsesStream({
          id: "resp_2",
          model,
          output: [functionCall("publish", "ledger_publish_entry", { entry: 2, clock: 7 })],
        }),
      },
    );
    const first = await (await ledgerAgent(provider(), model)).send("Append 1 and publish 2.", {
      approvalTimeoutMs: 0,
    }).final;
    expect(fake.requests[0]!.body.tools).toEqual([
      expect.objectContaining({ name: "ledger_append_entry", allowed_callers: ["programmatic"] }),
      expect.objectContaining({ name: "ledger_publish_entry", allowed_callers: ["programmatic"] }),
      { type: "programmatic_tool_calling" },
    ]);
    expect(first.finishReason).toBe("approval-required");
    expect((first.pending ?? []).map(({ id, name }) => ({ id, name }))).toEqual([
      { id: "call_publish", name: "ledger_publish_entry" },
    ]);
    expect(received()).toEqual([{ tool: "append_entry", entry: 1, clock: 7 }]);
    // The card's program: the program item of turn 1, with exactly the code the wire sent.
    const parent: PendingCallParent = {
      id: program.call_id,
      name: "programmatic_tool_calling",
      // Its second call: append ran in the turn before.
      sequence: 2,
      program: program.code,
      runtime: "provider",
    };
    expect(first.pending?.[0]?.parent).toEqual(parent);
    const resumer = await ledgerAgent(provider(), model);
    const state = await storedWithProgram(resumer, first.state, parent);

    fake.enqueue({
      chunks: responsesStream({
        id: "resp_3",
        model,
        output: [
          {
            id: "progout_1",
            type: "program_output",
            call_id: program.call_id,
            result: "",
            status: "completed",
          },
          responsesMessage("msg_3", "Appended 1, published 2."),
        ],
      }),
    });
    const resumed = await resumer.resume({
      state,
      decisions: { call_publish: "approve" },
    }).final;
    expect(resumed.finishReason).toBe("stop");
    expect(resumed.text).toBe("Appended 1, published 2.");
    expect(received()).toEqual([
      { tool: "append_entry", entry: 1, clock: 7 },
      { tool: "publish_entry", entry: 2, clock: 7 },
    ]);
    expect(fake.requests[2]!.body.input.at(-1)).toMatchObject({
      type: "function_call_output",
      call_id: "call_publish",
      caller,
    });
    expect(JSON.stringify(fake.requests[2]!.body.input.at(-1).output)).toContain(
      "entry 2 recorded by publish_entry",
    );
  });
});
