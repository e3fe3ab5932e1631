// The shared half of the step-overhead benchmarks: rounds alternating which side goes first,
// medians, one line of figures (and, for `pnpm bench` at the root, the figures as JSON). Never
// imported by shipped code.

/** A step's cost through the durability port next to the engine's own bare step, per step. */
export interface StepOverheadFigures {
  engine: string;
  /** The engine's own step, for example `DBOS.runStep`. */
  bareName: string;
  steps: number;
  rounds: number;
  /** Medians over the rounds of the time per step, in milliseconds. */
  bareMs: number;
  portMs: number;
}

/** The prefix of the line that carries the figures as JSON, when BENCH_FIGURES is set. */
export const FIGURES_LINE = "step-overhead-figures ";

/** Times `time("bare" | "port", round)` (milliseconds per step) over rounds and prints the comparison. */
export async function compareStepOverhead(options: {
  engine: string;
  bareName: string;
  steps: number;
  rounds: number;
  time: (side: "bare" | "port", round: number) => Promise<number>;
}): Promise<StepOverheadFigures> {
  const bare: number[] = [];
  const port: number[] = [];
  for (let round = 0; round <= options.rounds; round++) {
    // Alternate which goes first, so a trend over the run (a growing table, a warming cache)
    // does not land on one side.
    const order: Array<"bare" | "port"> = round % 2 === 0 ? ["bare", "port"] : ["port", "bare"];
    const times: Record<string, number> = {};
    for (const side of order) times[side] = await options.time(side, round);
    if (round === 0) continue; // warm-up
    bare.push(times.bare!);
    port.push(times.port!);
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const figures: StepOverheadFigures = {
    engine: options.engine,
    bareName: options.bareName,
    steps: options.steps,
    rounds: options.rounds,
    bareMs: median(bare),
    portMs: median(port),
  };
  const microseconds = (milliseconds: number) => `${(milliseconds * 1000).toFixed(0)} µs`;
  console.log(
    `${figures.engine} step (median of ${figures.rounds} rounds of ${figures.steps} steps): bare ${figures.bareName} ` +
      `${microseconds(figures.bareMs)}, through the port ${microseconds(figures.portMs)}, ratio ${(figures.portMs / figures.bareMs).toFixed(3)}, ` +
      `difference ${microseconds(figures.portMs - figures.bareMs)}`,
  );
  if (process.env.BENCH_FIGURES) console.log(`${FIGURES_LINE}${JSON.stringify(figures)}`);
  return figures;
}
