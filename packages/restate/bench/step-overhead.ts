// What a step through the durability port costs next to Restate's own bare `ctx.run`, on this
// machine: the Restate server from npm, one endpoint, the same trivial step body.
// `pnpm bench` here.
import { createServer } from "node:http2";
import { freePort } from "@junction/durable-engines/processes";
import { startRestateServer } from "@junction/durable-engines/restate-server";
import { compareStepOverhead } from "@junction/durable-engines/step-overhead";
import { restateWorkflow } from "@junction/restate";
import * as restate from "@restatedev/restate-sdk";
import * as clients from "@restatedev/restate-sdk-clients";

const steps = Number(process.env.STEPS ?? 200);
const rounds = Number(process.env.ROUNDS ?? 21);

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

const server = await startRestateServer();
const port = await freePort();
const endpoint = createServer(restate.createEndpointHandler({ services: [bare, throughPort] }));
try {
  await new Promise<void>((resolve) => endpoint.listen(port, "127.0.0.1", resolve));
  await server.register(`http://127.0.0.1:${port}`);
  const ingress = clients.connect({ url: server.ingressUrl });
  await compareStepOverhead({
    engine: "restate",
    bareName: "ctx.run",
    steps,
    rounds,
    time: async (side, round) => {
      const name = side === "bare" ? "bench-bare" : "bench-port";
      const client = ingress.workflowClient<Timed>({ name }, `${name}-${round}`);
      await client.workflowSubmit(steps);
      return (await client.workflowAttach()) / steps;
    },
  });
} finally {
  await new Promise((resolve) => endpoint.close(resolve));
  await server.stop();
}
