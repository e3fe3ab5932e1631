// What a step through the durability port costs next to DBOS's own bare step, on this machine:
// a throwaway PostgreSQL, one DBOS process, the same trivial step body. `pnpm bench` here.
import { DBOS } from "@dbos-inc/dbos-sdk";
import { dbosWorkflow } from "@junction/dbos";
import { startPostgres } from "@junction/durable-engines/postgres";
import { compareStepOverhead } from "@junction/durable-engines/step-overhead";

const steps = Number(process.env.STEPS ?? 200);
const rounds = Number(process.env.ROUNDS ?? 21);

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

const postgres = await startPostgres();
try {
  DBOS.setConfig({
    name: "junction-dbos-bench",
    systemDatabaseUrl: postgres.url("junction_dbos_bench"),
    logLevel: "error",
  });
  await DBOS.launch();
  await compareStepOverhead({
    engine: "dbos",
    bareName: "DBOS.runStep",
    steps,
    rounds,
    time: async (side) => {
      const handle = side === "bare" ? await DBOS.startWorkflow(bare)(steps) : await throughPort.start(steps);
      return (await handle.getResult()) / steps;
    },
  });
  await DBOS.shutdown();
} finally {
  postgres.stop();
}
