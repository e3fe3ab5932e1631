// Started by bench-conversation-cost.ts as `node --expose-gc … conversation-heap-child.ts <messages>`:
// measures what an Agent keeps of a conversation, and prints the figures as JSON.
import { Agent, tool } from "@junction/core";
import { chatCompletions } from "@junction/provider-chatcompletions";
import type { Message } from "@junction/types";
import { z } from "zod";
import { conversation, resultText, startTurnFake, TURN_TOOL } from "./conversation-fixtures.ts";

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("conversation-heap-child: run with --expose-gc");
const priorMessages = Number(process.argv[2]);
if (!Number.isInteger(priorMessages) || priorMessages < 0)
  throw new Error(`conversation-heap-child: expected a message count, got ${process.argv[2]}`);

/** Heap in use once garbage is collected (several passes: weak references and finalizers settle). */
function settledHeap(): number {
  for (let pass = 0; pass < 4; pass++) gc!();
  return process.memoryUsage().heapUsed;
}

const fake = await startTurnFake();
const provider = chatCompletions({ baseURL: `${fake.url}/v1`, apiKey: "bench" });
const makeAgent = (messages: Message[] | undefined) =>
  new Agent({
    provider,
    model: "bench",
    ...(messages ? { messages } : {}),
    tools: [
      tool({
        name: TURN_TOOL,
        description: "Looks a record up.",
        schema: z.object({ id: z.number(), fields: z.array(z.string()) }),
        execute: async ({ id }) => resultText(id),
      }),
    ],
  });

// A warm-up run on a short conversation: code, caches and the connection pool are in the baseline.
await makeAgent(conversation(8).junction).send("Turn.").final;

// Every array and result lives in `held` and is touched only inside the functions below: a
// temporary in this module's own frame (a register) would keep it alive past the point where the
// caller dropped it, and count against the Agent.
const held: { messages?: Message[]; agent?: Agent } = {};
function load(): void {
  held.messages = conversation(priorMessages).junction;
}
function construct(): void {
  held.agent = makeAgent(held.messages);
  held.messages = undefined; // the caller keeps nothing: what stays is the Agent's
}
async function sendOnce(): Promise<void> {
  const result = await held.agent!.send("Turn.").final;
  if (result.steps.length !== 2) throw new Error(`the run took ${result.steps.length} steps, not 2`);
  // The caller drops the result here.
}

const baseline = settledHeap();
load();
const conversationBytes = settledHeap() - baseline;
construct();
const constructedBytes = settledHeap() - baseline;
await sendOnce();
const afterSend = settledHeap() - baseline;
if (!held.agent) throw new Error("the Agent is gone");
// What stays once the Agent is gone too is not the Agent's: the HTTP client keeps the last request
// of its keep-alive connection (its body, megabytes here) until the next one.
held.agent = undefined;
const residueBytes = settledHeap() - baseline;

process.stdout.write(
  JSON.stringify({
    priorMessages,
    conversationBytes,
    constructedBytes,
    afterSendBytes: afterSend - residueBytes,
    residueBytes,
  }),
);
await fake.close();
