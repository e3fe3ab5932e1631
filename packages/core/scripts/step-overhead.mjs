// The Agent's own overhead per step: a 20-step loop with the scripted model and an instant
// tool; time spent inside the model stream and inside the tool is measured and subtracted.
// Run after `pnpm --filter @junction/core build`:  node scripts/step-overhead.mjs
import { Agent } from "../dist/index.js";
import { scriptedModel } from "../dist/testing/index.js";

const STEPS = 20;
const RUNS = 15;
const WARMUP = 5;

function timedProvider(inner, clock) {
  return {
    name: inner.name,
    capabilities: inner.capabilities,
    stream(request) {
      const start = performance.now();
      const iterator = inner.stream(request)[Symbol.asyncIterator]();
      clock.model += performance.now() - start;
      return {
        [Symbol.asyncIterator]() {
          return {
            async next() {
              const t = performance.now();
              const result = await iterator.next();
              clock.model += performance.now() - t;
              return result;
            },
            return: (value) => iterator.return?.(value) ?? Promise.resolve({ done: true, value }),
          };
        },
      };
    },
  };
}

async function oneRun() {
  const clock = { model: 0, tool: 0 };
  const turns = [];
  for (let i = 1; i < STEPS; i++)
    turns.push({ text: `step ${i}`, toolCalls: [{ name: "noop", input: { i } }] });
  turns.push({ text: "done" });
  const noop = {
    name: "noop",
    description: "does nothing",
    inputSchema: { type: "object", properties: { i: { type: "number" } }, required: ["i"] },
    async execute(input) {
      const t = performance.now();
      const result = `ok ${input.i}`;
      clock.tool += performance.now() - t;
      return result;
    },
  };
  const agent = new Agent({
    provider: timedProvider(scriptedModel(turns), clock),
    model: "scripted",
    tools: [noop],
    maxSteps: STEPS,
  });
  const start = performance.now();
  const handle = agent.send("go");
  let events = 0;
  for await (const _event of handle) events++;
  const result = await handle.final;
  const total = performance.now() - start;
  if (result.steps.length !== STEPS) throw new Error(`expected ${STEPS} steps, got ${result.steps.length}`);
  return {
    perStep: (total - clock.model - clock.tool) / STEPS,
    total,
    model: clock.model,
    tool: clock.tool,
    events,
  };
}

for (let i = 0; i < WARMUP; i++) await oneRun();
const runs = [];
for (let i = 0; i < RUNS; i++) runs.push(await oneRun());
const sorted = runs.map((r) => r.perStep).sort((a, b) => a - b);
const median = sorted[Math.floor(sorted.length / 2)];
const medianTotal = runs.map((r) => r.total).sort((a, b) => a - b)[Math.floor(runs.length / 2)];
console.log(
  `steps per run: ${STEPS}, runs: ${RUNS} (after ${WARMUP} warm-up runs), events per run: ${runs[0].events}`,
);
console.log(`median run: ${medianTotal.toFixed(2)} ms in total`);
console.log(
  `agent overhead per step (median, model and tool time excluded): ${(median * 1000).toFixed(0)} µs`,
);
console.log(
  `range over runs: ${(sorted[0] * 1000).toFixed(0)}–${(sorted.at(-1) * 1000).toFixed(0)} µs per step`,
);
