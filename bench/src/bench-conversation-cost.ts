import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { Agent, tool as junctionTool } from "@junction/core";
import { chatCompletions } from "@junction/provider-chatcompletions";
import { tool as aiTool, stepCountIs, streamText } from "ai";
import { z } from "zod";
import { conversation, floorBody, resultText, startTurnFake, TURN_TOOL } from "./conversation-fixtures.ts";
import { RESOLVE_TYPESCRIPT_IMPORT } from "./resolve-typescript.ts";
import { median, shuffled } from "./stats.ts";

/** One conversation length: a turn's wall time for each agent, medians over rounds. */
export interface ConversationTurnFigures {
  priorMessages: number;
  junctionMs: number;
  aiSDKMs: number;
  /** CPU time of this process per turn (the fake's share included, the same for both): steadier than wall time on a busy machine. */
  junctionCPUMs: number;
  aiSDKCPUMs: number;
  /** Two bare POSTs of a body that size to the same fake, read to the end: what neither agent can avoid. */
  httpFloorMs: number;
  rounds: number;
}

/** What an Agent keeps after one run on a long conversation, against the conversation itself. */
export interface AgentHeapFigures {
  priorMessages: number;
  /** Heap the conversation takes (parsed from JSON), alone. */
  conversationBytes: number;
  /** Heap kept by an Agent given that conversation, after its construction (the caller dropped its array). */
  constructedBytes: number;
  /** Heap kept by that Agent after one `send()` whose result the caller dropped (the residue below taken off). */
  afterSendBytes: number;
  /** Heap still in use once the Agent is dropped too: the HTTP client's last request, not the Agent's. */
  residueBytes: number;
}

/** The prior conversation lengths measured: the target is at 5,000. */
export const CONVERSATION_SIZES = [0, 500, 5000] as const;

/** The length the targets are set at. */
export const TARGET_MESSAGES = 5000;

const schema = z.object({ id: z.number(), fields: z.array(z.string()) });

/**
 * One turn (the user's message, one tool call with a 2 KB result, then the answer: two model
 * requests) on a conversation of `sizes` prior messages, as a server runs it per request: a new
 * Junction `Agent` given the conversation in `messages` and `send()`, against the AI SDK's
 * `streamText` given the same conversation in its shape, both with the Chat Completions provider
 * against the same local fake, interleaved in a fresh order every round.
 */
export async function benchConversationTurns(options: {
  sizes?: readonly number[];
  rounds: (priorMessages: number) => number;
}): Promise<ConversationTurnFigures[]> {
  const fake = await startTurnFake();
  const figures: ConversationTurnFigures[] = [];
  try {
    for (const priorMessages of options.sizes ?? CONVERSATION_SIZES) {
      const prior = conversation(priorMessages);
      const floor = floorBody([...prior.junction, { role: "user", content: "Turn." }]);
      const contenders: Record<string, () => Promise<void>> = {
        junction: async () => {
          const agent = new Agent({
            provider: chatCompletions({ baseURL: `${fake.url}/v1`, apiKey: "bench" }),
            model: "bench",
            messages: prior.junction,
            tools: [
              junctionTool({
                name: TURN_TOOL,
                description: "Looks a record up.",
                schema,
                execute: async ({ id }) => resultText(id),
              }),
            ],
          });
          const result = await agent.send("Turn.").final;
          if (result.steps.length !== 2) throw new Error(`Junction ran ${result.steps.length} steps, not 2`);
        },
        aiSDK: async () => {
          const provider = createOpenAICompatible({
            name: "bench",
            baseURL: `${fake.url}/v1`,
            apiKey: "bench",
          });
          const result = streamText({
            model: provider.chatModel("bench"),
            messages: [...prior.aiSDK, { role: "user", content: "Turn." }],
            tools: {
              [TURN_TOOL]: aiTool({
                description: "Looks a record up.",
                inputSchema: schema,
                execute: async ({ id }) => resultText(id),
              }),
            },
            stopWhen: stepCountIs(2),
          });
          await result.consumeStream();
          const steps = await result.steps;
          if (steps.length !== 2) throw new Error(`AI SDK ran ${steps.length} steps, not 2`);
        },
        httpFloor: async () => {
          for (let request = 0; request < 2; request++) {
            const response = await fetch(`${fake.url}/v1/chat/completions`, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: floor,
            });
            await response.text();
          }
        },
      };
      const times: Record<string, number[]> = { junction: [], aiSDK: [], httpFloor: [] };
      const cpu: Record<string, number[]> = { junction: [], aiSDK: [], httpFloor: [] };
      for (const run of Object.values(contenders)) await run(); // warm-up
      const rounds = options.rounds(priorMessages);
      for (let round = 0; round < rounds; round++) {
        for (const name of shuffled(Object.keys(contenders))) {
          const start = performance.now();
          const startCPU = process.cpuUsage();
          await contenders[name]!();
          times[name]!.push(performance.now() - start);
          const used = process.cpuUsage(startCPU);
          cpu[name]!.push((used.user + used.system) / 1000);
        }
      }
      figures.push({
        priorMessages,
        junctionMs: median(times.junction!),
        aiSDKMs: median(times.aiSDK!),
        junctionCPUMs: median(cpu.junction!),
        aiSDKCPUMs: median(cpu.aiSDK!),
        httpFloorMs: median(times.httpFloor!),
        rounds,
      });
    }
  } finally {
    await fake.close();
  }
  return figures;
}

const childScript = fileURLToPath(new URL("./conversation-heap-child.ts", import.meta.url));

/**
 * An Agent's retained heap, in a fresh process with `--expose-gc` (so nothing else this run
 * allocated is counted): the median of `samples` processes.
 */
export function benchAgentHeap(options: { priorMessages: number; samples: number }): AgentHeapFigures {
  const runs = Array.from({ length: options.samples }, () => {
    const output = execFileSync(
      process.execPath,
      ["--expose-gc", "--import", RESOLVE_TYPESCRIPT_IMPORT, childScript, String(options.priorMessages)],
      { cwd: fileURLToPath(new URL("..", import.meta.url)), encoding: "utf8" },
    );
    return JSON.parse(output) as AgentHeapFigures;
  });
  const middle = (pick: (figures: AgentHeapFigures) => number) => median(runs.map(pick));
  return {
    priorMessages: options.priorMessages,
    conversationBytes: middle((f) => f.conversationBytes),
    constructedBytes: middle((f) => f.constructedBytes),
    afterSendBytes: middle((f) => f.afterSendBytes),
    residueBytes: middle((f) => f.residueBytes),
  };
}

// `node --import ./src/resolve-typescript.ts src/bench-conversation-cost.ts [--smoke]`: only this part.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const smoke = process.argv.includes("--smoke");
  const turns = await benchConversationTurns(
    smoke
      ? { sizes: [0, 40], rounds: () => 1 }
      : { rounds: (priorMessages) => (priorMessages >= TARGET_MESSAGES ? 15 : 30) },
  );
  const heap = benchAgentHeap(
    smoke ? { priorMessages: 40, samples: 1 } : { priorMessages: TARGET_MESSAGES, samples: 3 },
  );
  process.stdout.write(`${JSON.stringify({ turns, heap }, null, 2)}\n`);
}
