// The shared half of the step-overhead benchmarks: rounds alternating which side goes first,
// medians, one line of figures. Never imported by shipped code.

/** Times `time("bare" | "port", round)` (milliseconds per step) over rounds and prints the comparison. */
export async function compareStepOverhead(options: {
  engine: string;
  bareName: string;
  steps: number;
  rounds: number;
  time: (side: "bare" | "port", round: number) => Promise<number>;
}): Promise<void> {
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
  const [bareStep, portStep] = [median(bare), median(port)];
  const microseconds = (milliseconds: number) => `${(milliseconds * 1000).toFixed(0)} µs`;
  console.log(
    `${options.engine} step (median of ${options.rounds} rounds of ${options.steps} steps): bare ${options.bareName} ` +
      `${microseconds(bareStep)}, through the port ${microseconds(portStep)}, ratio ${(portStep / bareStep).toFixed(3)}, ` +
      `difference ${microseconds(portStep - bareStep)}`,
  );
}
