import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { useBrowserSession } from "../../test/browser-session.js";
import type { FakeVendorEndpoint } from "../../test/fake-vendor-endpoint.js";
import { startScriptedChatCompletions, toolResultsIn } from "../../test/scripted-chat-completions.js";
import { startTestPlayground } from "../../test/test-playground.js";

// Issue 35: with code mode on, the model writes a program that calls the tools. The page shows
// the program's card (its source, then its calls as they come, then what it returned); a call of
// the program that needs approval is asked with the program's source beside it, after a restart
// of the playground too, and approving it runs the program on. The program runs in
// @junction/sandbox-quickjs, the sandbox the playground ships with.

const session = useBrowserSession("code-mode");
let model: FakeVendorEndpoint | undefined;
afterAll(async () => {
  await model?.close();
});

// The model's program: a read-only call that runs unasked, a gated one, and markup in a comment
// and in what it logs, which the page must show as text.
const program = [
  '// <img src=x onerror="window.__pwned = 1"> is a comment, not markup',
  "const sum = await tools.everything.get_sum({ a: 2, b: 3 });",
  'console.log("<b>sum</b> says", sum);',
  "const saved = await tools.memory.create_entities({",
  '  entities: [{ name: "the sum", entityType: "number", observations: [String(sum)] }],',
  "});",
  "return { sum, saved: saved.entities.length };",
].join("\n");

describe("code mode on the chat page", () => {
  it("shows the program's card with its calls, asks for the gated call with the source beside it (again after a restart), and shows the result once approved", async () => {
    model = await startScriptedChatCompletions((request) =>
      toolResultsIn(request) === 0
        ? { toolCalls: [{ id: "call_program", name: "run_program", arguments: { code: program } }] }
        : { text: "Added 2 and 3 and kept the sum in memory." },
    );
    const environment = { PATH: process.env.PATH, OPENAI_COMPATIBLE_BASE_URL: `${model.url}/v1` };
    // The session's playground, replaced by one whose model is the scripted endpoint.
    await session.test.close();
    session.test = await startTestPlayground({ environment });

    const { page } = session;
    await page.goto(session.test.url);
    await page.getByTestId("nav-chat").click();
    await page.getByTestId("provider-select").selectOption("openai-compatible");
    expect(await page.getByTestId("code-mode").inputValue()).toBe("off");
    await page.getByTestId("code-mode").selectOption("sandbox");
    await page.getByTestId("composer").fill("add 2 and 3 and remember the sum");
    await page.getByTestId("send").click();

    const card = page.getByTestId("program-card");
    const approval = card.getByTestId("approval");
    await approval.waitFor();
    // The program tool was offered, saying how a program reaches the servers' tools (each offered
    // directly too, so described once, by its own definition).
    const offered = model.requests[0]!.body.tools.find(
      (tool: { function: { name: string } }) => tool.function.name === "run_program",
    );
    expect(offered.function.description).toContain("tools.everything.echo(input) is everything_echo");
    expect(await card.getByTestId("program-source").textContent()).toBe(program);
    // The first call ran and is listed, done, while the program still waits at its second.
    const calls = card.getByTestId("program-call");
    expect(await calls.count()).toBe(2);
    expect(await calls.getByTestId("program-call-sequence").allTextContents()).toEqual(["1.", "2."]);
    expect(await calls.getByTestId("program-call-name").allTextContents()).toEqual([
      "everything_get-sum",
      "memory_create_entities",
    ]);
    expect(
      JSON.parse((await calls.nth(0).getByTestId("program-call-arguments").textContent()) ?? ""),
    ).toEqual({
      a: 2,
      b: 3,
    });
    expect(await calls.nth(0).getByTestId("program-call-outcome").textContent()).toBe("success");
    expect(await calls.nth(0).getByTestId("program-call-status").textContent()).toMatch(/^\d+ ms$/);
    expect(await calls.nth(1).getByTestId("program-call-status").textContent()).toBe("waiting for approval");
    expect(await card.getByTestId("program-status").textContent()).toBe("waiting for approval of call 2");
    expect(await card.getByTestId("program-result").count()).toBe(0);
    await expectApprovalWithSource();
    await session.browser.shot("01-program-waiting-at-call-2.png");

    // The playground goes away with the question unanswered, and comes back on the same data.
    const directory = session.test.directory;
    await session.test.close({ keepDirectory: true });
    session.test = await startTestPlayground({ directory, environment });
    await page.goto(session.test.url);
    await page.getByTestId("nav-chat").click();
    await page.getByTestId("conversation-item").first().click();
    await approval.waitFor();
    expect(await page.getByTestId("code-mode").inputValue()).toBe("sandbox");
    await expectApprovalWithSource();
    await session.browser.shot("02-program-waiting-after-restart.png");

    await approval.getByTestId("approve").click();
    await expect.poll(() => card.getByTestId("program-status").textContent()).toMatch(/^done in \d+ ms$/);
    expect(await calls.count()).toBe(2);
    expect(await calls.getByTestId("program-call-outcome").allTextContents()).toEqual(["success", "success"]);
    const returned = JSON.parse((await card.getByTestId("program-returned").textContent()) ?? "");
    expect(returned).toMatchObject({ saved: 1 });
    expect(JSON.stringify(returned.sum)).toContain("5");
    expect(await card.getByTestId("program-console").textContent()).toMatch(/^<b>sum<\/b> says .*5/);
    await expect
      .poll(() => page.getByTestId("message-assistant").last().textContent())
      .toContain("Added 2 and 3 and kept the sum in memory.");
    expect(await page.getByTestId("approval").count()).toBe(0);
    await session.browser.shot("03-program-done.png");

    // The gated call ran once, with the arguments the person approved.
    const memory = readFileSync(join(directory, "memory.jsonl"), "utf8");
    expect(memory.match(/"the sum"/g)).toHaveLength(1);
    // What the model got is the program's answer, not the calls' results.
    const answer = model.requests.at(-1)!.body.messages.at(-1);
    expect(answer.role).toBe("tool");
    expect(JSON.stringify(answer.content)).toContain("Returned: ");
    // Markup in the source and the console stayed text.
    expect(await card.locator("img, b").count()).toBe(0);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(session.pageErrors).toEqual([]);
  });
});

/** The approval of the program's second call: the call and its arguments, with the program's source beside it. */
async function expectApprovalWithSource(): Promise<void> {
  const approval = session.page.getByTestId("program-card").getByTestId("approval");
  expect(await approval.textContent()).toContain("Allow memory_create_entities to run with these arguments?");
  expect(JSON.parse((await approval.getByTestId("approval-arguments").textContent()) ?? "")).toEqual({
    entities: [{ name: "the sum", entityType: "number", observations: [expect.stringContaining("5")] }],
  });
  expect(await approval.getByTestId("approval-sequence").textContent()).toBe("call 2 of the program");
  expect(await approval.getByTestId("approval-program").textContent()).toBe(program);
}
