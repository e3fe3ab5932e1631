import {
  anthropicStream,
  anthropicText,
  anthropicToolUse,
  type RecordedRequest,
  startWireFake,
  type WireFake,
} from "@junction/wire-fake";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectLedger, type LedgerPost } from "../../test/ledger-server.js";
import {
  answerApproval,
  runChatTurn,
  startTestPlayground,
  type TestPlayground,
} from "../../test/test-playground.js";

// Code mode "provider": the vendor runs the model's program (Anthropic's programmatic tool calling),
// through the playground's own provider setup (ANTHROPIC_BASE_URL) and the real Anthropic SDK,
// against the wire fake. The program's calls come back as tool calls the playground gates like
// direct ones: the gated one stops the run, and the answer given through the API resumes it on the
// vendor, where the ledger receives the call once.

const model = "claude-sonnet-5-5";
const CODE = "code_execution_20250825";
const caller = { type: CODE, tool_id: "srvtoolu_program" };
const container = { id: "container_ledger", expires_at: "2026-12-02T23:00:00Z" };
const program =
  'balance = await ledger_read_balance({"account": "a"})\nawait ledger_post_entry({"account": "a", "amount": 5})';

/** The ids of the tool results the request's last message carries. */
const answeredIn = (request: RecordedRequest): string[] => {
  const content = request.body?.messages?.at(-1)?.content;
  return Array.isArray(content)
    ? content.flatMap((part: { type: string; tool_use_id?: string }) =>
        part.type === "tool_result" ? [part.tool_use_id!] : [],
      )
    : [];
};

/**
 * Claude in the fake: asked to post, it writes a program in the container that reads the balance;
 * with that read's result, the program posts; with the post's result, the program ends and
 * Claude answers. Anything else is answered with text.
 */
function claude(request: RecordedRequest) {
  const answered = answeredIn(request);
  const lastText = request.body?.messages?.at(-1)?.content;
  if (lastText === "post 5 to a in a program") {
    return {
      chunks: anthropicStream({
        id: "msg_program",
        model,
        blocks: [
          anthropicText("I'll post it in code."),
          {
            start: { type: "server_tool_use", id: "srvtoolu_program", name: "code_execution", input: {} },
            deltas: [{ type: "input_json_delta", partial_json: JSON.stringify({ code: program }) }],
          },
          anthropicToolUse({ id: "toolu_balance", name: "ledger_read_balance", caller }, '{"account":"a"}'),
        ],
        stopReason: "tool_use",
        delta: { container },
      }),
    };
  }
  if (answered.includes("toolu_balance")) {
    return {
      chunks: anthropicStream({
        id: "msg_post",
        model,
        blocks: [
          anthropicToolUse(
            { id: "toolu_post", name: "ledger_post_entry", caller },
            '{"account":"a","amount":5}',
          ),
        ],
        stopReason: "tool_use",
        delta: { container },
      }),
    };
  }
  if (answered.includes("toolu_post")) {
    return {
      chunks: anthropicStream({
        id: "msg_done",
        model,
        blocks: [
          {
            start: {
              type: "code_execution_tool_result",
              tool_use_id: "srvtoolu_program",
              content: {
                type: "code_execution_result",
                stdout: "posted\n",
                stderr: "",
                return_code: 0,
                content: [],
              },
            },
          },
          anthropicText("Posted 5 to a."),
        ],
        stopReason: "end_turn",
      }),
    };
  }
  return {
    chunks: anthropicStream({
      id: "msg_text",
      model,
      blocks: [anthropicText("Hello.")],
      stopReason: "end_turn",
    }),
  };
}

let fake: WireFake;
let test: TestPlayground;
let posted: () => LedgerPost[];
beforeAll(async () => {
  fake = await startWireFake({ fallback: claude });
  test = await startTestPlayground({
    seedDefaults: false,
    environment: { PATH: process.env.PATH, ANTHROPIC_API_KEY: "sk-ant-test", ANTHROPIC_BASE_URL: fake.url },
  });
  posted = await connectLedger(test);
});
afterAll(async () => {
  await test?.close();
  await fake?.close();
});

describe("code mode on the vendor (provider), in the playground's chat", () => {
  it("is offered for a model that runs programs, and refused for one that does not, saying why and what to choose", async () => {
    expect(await test.api("GET", `/api/code-mode?provider=anthropic&model=${model}`)).toEqual({
      status: 200,
      body: { modes: ["off", "sandbox", "provider"] },
    });
    const haiku = await test.api("GET", "/api/code-mode?provider=anthropic&model=claude-haiku-5-5");
    expect(haiku.body.modes).toEqual(["off", "sandbox"]);
    expect(haiku.body.providerUnavailable).toContain(`anthropic's "claude-haiku-5-5" does not`);

    const { body: conversation } = await test.api("POST", "/api/conversations", {
      provider: "anthropic",
      model: "claude-haiku-5-5",
    });
    const refused = await test.api("PUT", `/api/conversations/${conversation.id}/code-mode`, {
      mode: "provider",
    });
    expect(refused).toEqual({
      status: 400,
      body: {
        error:
          `Code mode "provider" runs programs on the vendor's side, which only a model that runs programs itself can do ` +
          `(Anthropic's Claude Sonnet or Opus 4.5 and later, OpenAI's GPT-5.6); anthropic's "claude-haiku-5-5" does not. ` +
          `Choose "sandbox" or "off" for its code mode, or a model that runs programs.`,
      },
    });
    expect(test.playground.store.getConversation(conversation.id)!.codeMode).toBe("off");
    expect(
      (
        await test.api("POST", "/api/conversations", {
          provider: "anthropic",
          model: "claude-haiku-5-5",
          codeMode: "provider",
        })
      ).status,
    ).toBe(400);

    // With the model the next turn uses, it is taken, and the conversation takes that model.
    expect(
      await test.api("PUT", `/api/conversations/${conversation.id}/code-mode`, {
        mode: "provider",
        provider: "anthropic",
        model: "claude-opus-5-5",
      }),
    ).toEqual({
      status: 200,
      body: { codeMode: "provider", provider: "anthropic", model: "claude-opus-5-5" },
    });
    // A turn on a model that does not run programs is refused before anything is sent.
    const sent = fake.requests.length;
    const events = await runChatTurn(test, conversation.id, { text: "hi", model: "claude-haiku-5-5" });
    expect(events).toEqual([
      {
        type: "error",
        aborted: false,
        message: expect.stringContaining(
          `anthropic's "claude-haiku-5-5" does not. Choose "sandbox" or "off" for this conversation's code mode`,
        ),
      },
    ]);
    expect(fake.requests.length).toBe(sent);
  });

  it("sends the tools with allowed_callers, stops at the program's gated call, and the answer through the API resumes it on the vendor: the ledger posts once", async () => {
    const { body: conversation } = await test.api("POST", "/api/conversations", {
      provider: "anthropic",
      model,
      codeMode: "provider",
    });
    expect(conversation.codeMode).toBe("provider");
    const first = fake.requests.length;
    const events = await runChatTurn(test, conversation.id, { text: "post 5 to a in a program" });
    expect(events.at(-1)).toMatchObject({ type: "finish", reason: "approval-required" });
    expect(
      events.flatMap((event) =>
        event.type === "tool-call" || event.type === "tool-result" || event.type === "approval-request"
          ? [`${event.type} ${event.id} ${event.name}`]
          : [],
      ),
    ).toEqual([
      "tool-call toolu_balance ledger_read_balance",
      "tool-result toolu_balance ledger_read_balance",
      "tool-call toolu_post ledger_post_entry",
      "approval-request toolu_post ledger_post_entry",
    ]);

    // The program's first call names it already: the vendor's tool and the source it ran.
    expect(events.find((event) => event.type === "tool-call" && event.id === "toolu_balance")).toMatchObject({
      parent: { id: "srvtoolu_program", sequence: 1, name: CODE, program },
    });

    // What Anthropic was sent: every ledger tool callable by the code too, the code execution tool, no run_program.
    const request = fake.requests[first]!.body;
    expect(
      request.tools.map((tool: { name: string; allowed_callers?: string[] }) => [
        tool.name,
        tool.allowed_callers,
      ]),
    ).toEqual([
      ["ledger_list_accounts", ["direct", CODE]],
      ["ledger_read_balance", ["direct", CODE]],
      ["ledger_read_owner", ["direct", CODE]],
      ["ledger_export_ledger", ["direct", CODE]],
      ["ledger_post_entry", ["direct", CODE]],
      ["code_execution", undefined],
    ]);
    expect(request.tools.at(-1)).toEqual({ type: CODE, name: "code_execution" });
    // The read's result went back into the container the program runs in.
    expect(fake.requests[first + 1]!.body.container).toBe(container.id);
    expect(posted()).toEqual([]);
    const stored = test.playground.store.getConversation(conversation.id)!;
    expect(stored.runState?.pending.map((call) => call.id)).toEqual(["toolu_post"]);
    expect(stored.runStateCodeMode).toBe("provider");

    // The approval card's facts: the vendor's program and its source beside the call, in the
    // request, the stored state and the transcript the page renders (after a restart too).
    const vendorProgram = { id: "srvtoolu_program", sequence: 2, program, runtime: "provider" };
    const asked = events.find((event) => event.type === "approval-request");
    expect(asked?.type === "approval-request" && asked.item?.parent).toMatchObject(vendorProgram);
    expect(stored.runState?.pending[0]?.parent).toMatchObject(vendorProgram);
    const card = stored.transcript.find((item) => item.kind === "tool" && item.id === "srvtoolu_program");
    expect(card?.kind === "tool" && card.name).toBe(CODE);
    expect(card?.kind === "tool" && card.program).toMatchObject({
      source: program,
      calls: [
        { id: "toolu_balance", sequence: 1, status: "done" },
        { id: "toolu_post", sequence: 2, status: "awaiting-approval", program },
      ],
    });

    // The mode changed while the call waits: the stopped program still resumes on the vendor.
    await test.api("PUT", `/api/conversations/${conversation.id}/code-mode`, { mode: "sandbox" });
    const continued = await answerApproval(
      test,
      { conversationId: conversation.id, callId: "toolu_post" },
      { approve: true },
    );
    expect(
      continued.find((event) => event.type === "tool-result" && event.id === "toolu_post"),
    ).toMatchObject({
      name: "ledger_post_entry",
      outcome: "success",
      result: { content: [{ type: "text", text: "posted 5 to a" }] },
    });
    expect(continued.at(-1)).toEqual({ type: "finish", reason: "stop", text: "Posted 5 to a." });
    expect(posted()).toEqual([{ account: "a", amount: 5 }]);

    const resumed = fake.requests.at(-1)!.body;
    expect(resumed.container).toBe(container.id);
    expect(resumed.tools.map((tool: { name: string }) => tool.name)).not.toContain("run_program");
    expect(resumed.tools.at(-1)).toEqual({ type: CODE, name: "code_execution" });
    expect(resumed.messages.at(-1)).toEqual({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_post",
          content: [{ type: "text", text: "posted 5 to a" }],
        },
      ],
    });
    expect(test.playground.store.getConversation(conversation.id)).toMatchObject({
      runState: null,
      runStateCodeMode: null,
      codeMode: "sandbox",
    });

    // Answered once: the same answer again finds nothing waiting, and the ledger is not posted twice.
    const again = await test.api("POST", `/api/conversations/${conversation.id}/approvals/toolu_post`, {
      approve: true,
    });
    expect(again.status).toBe(400);
    expect(posted()).toEqual([{ account: "a", amount: 5 }]);
  });
});
