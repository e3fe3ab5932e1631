// What a step through the durability port costs next to Restate's own bare `ctx.run`, on this
// machine: the Restate server from npm, one endpoint process, the same trivial step body.
// `pnpm bench` here.
import { createServer } from "node:http2";
import { freePort } from "@junction/durable-engines/processes";
import { startRestateServer } from "@junction/durable-engines/restate-server";
import { restateWorkflow } from "@junction/restate";
import * as restate from "@restatedev/restate-sdk";
import * as clients from "@restatedev/restate-sdk-clients";

const steps = Number(process.env.STEPS ?? 200);
const rounds = Number(process.env.ROUNDS ?? 7);

const bare = restate.workflow({
  name: "bench-bare",
  handlers: {
    run: async (ctx: restate.WorkflowContext, count: number) => {
      const started = performance.now();
      for (let index = 0; index < count; index++) await ctx.run(`step:${index}`, async () => index);
      return performance.now() - started;
    },
  },
});
const throughPort = restateWorkflow("bench-port", async (durability, count: number) => {
  const started = performance.now();
  for (let index = 0; index < count; index++) await durability.step(`step:${index}`, async () => index);
  return performance.now() - started;
});

type Timed = { run: (ctx: unknown, count: number) => Promise<number> };
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const server = await startRestateServer();
const port = await freePort();
const endpoint = createServer(restate.createEndpointHandler({ services: [bare, throughPort] }));
try {
  await new Promise<void>((resolve) => endpoint.listen(port, "127.0.0.1", resolve));
  await server.register(`http://127.0.0.1:${port}`);
  const ingress = clients.connect({ url: server.ingressUrl });
  const time = async (name: string, round: number) => {
    const client = ingress.workflowClient<Timed>({ name }, `${name}-${round}`);
    await client.workflowSubmit(steps);
    return (await client.workflowAttach()) / steps;
  };
  const bareTimes: number[] = [];
  const portTimes: number[] = [];
  for (let round = 0; round <= rounds; round++) {
    // Alternate which goes first, so a trend over the run does not land on one side.
    const [bareStep, portStep] =
      round % 2 === 0
        ? [await time("bench-bare", round), await time("bench-port", round)]
        : [await time("bench-port", round), await time("bench-bare", round)].reverse();
    if (round === 0) continue; // warm-up
    bareTimes.push(bareStep!);
    portTimes.push(portStep!);
  }
  const bareStep = median(bareTimes);
  const portStep = median(portTimes);
  console.log(
    `restate step (median of ${rounds} rounds of ${steps} steps): bare ctx.run ${(bareStep * 1000).toFixed(0)} µs, ` +
      `through the port ${(portStep * 1000).toFixed(0)} µs, ratio ${(portStep / bareStep).toFixed(3)}, ` +
      `difference ${((portStep - bareStep) * 1000).toFixed(0)} µs`,
  );
} finally {
  await new Promise((resolve) => endpoint.close(resolve));
  await server.stop();
}
