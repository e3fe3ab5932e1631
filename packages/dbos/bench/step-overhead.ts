// What a step through the durability port costs next to DBOS's own bare step, on this machine:
// a throwaway PostgreSQL, one DBOS process, the same trivial step body. `pnpm bench` here.
import { DBOS } from "@dbos-inc/dbos-sdk";
import { dbosWorkflow } from "@junction/dbos";
import { startPostgres } from "@junction/durable-engines/postgres";

const steps = Number(process.env.STEPS ?? 200);
const rounds = Number(process.env.ROUNDS ?? 7);

const bare = DBOS.registerWorkflow(
  async (count: number) => {
    const started = performance.now();
    for (let index = 0; index < count; index++)
      await DBOS.runStep(async () => index, { name: `step:${index}` });
    return performance.now() - started;
  },
  { name: "bench-bare" },
);
const throughPort = dbosWorkflow("bench-port", async (durability, count: number) => {
  const started = performance.now();
  for (let index = 0; index < count; index++) await durability.step(`step:${index}`, async () => index);
  return performance.now() - started;
});

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const postgres = await startPostgres();
try {
  DBOS.setConfig({
    name: "junction-dbos-bench",
    systemDatabaseUrl: postgres.url("junction_dbos_bench"),
    logLevel: "error",
  });
  await DBOS.launch();
  const bareTimes: number[] = [];
  const portTimes: number[] = [];
  for (let round = 0; round <= rounds; round++) {
    // Alternate which goes first, so a trend over the run (a growing table, a warming cache)
    // does not land on one side.
    const timeBare = async () => (await (await DBOS.startWorkflow(bare)(steps)).getResult()) / steps;
    const timePort = async () => (await (await throughPort.start(steps)).getResult()) / steps;
    const [bareStep, portStep] =
      round % 2 === 0 ? [await timeBare(), await timePort()] : [await timePort(), await timeBare()].reverse();
    if (round === 0) continue; // warm-up
    bareTimes.push(bareStep!);
    portTimes.push(portStep!);
  }
  const bareStep = median(bareTimes);
  const portStep = median(portTimes);
  console.log(
    `dbos step (median of ${rounds} rounds of ${steps} steps): bare DBOS.runStep ${(bareStep * 1000).toFixed(0)} µs, ` +
      `through the port ${(portStep * 1000).toFixed(0)} µs, ratio ${(portStep / bareStep).toFixed(3)}, ` +
      `difference ${((portStep - bareStep) * 1000).toFixed(0)} µs`,
  );
  await DBOS.shutdown();
} finally {
  postgres.stop();
}
