// Code mode's nested-call figure alone (the part of bench:code-mode that takes a minute, not
// ten): per MCP call, a program's call against a direct one, Junction and the AI SDK in the same
// run, in wall time and in this process's CPU time. For working on the per-call path.
// Run: pnpm --filter @junction/bench bench:nested-calls [--rounds N] [--warmup-rounds N] [--calls N]
import { loadavg } from "node:os";
import { CODE_MODE_SETTINGS } from "./bench-code-mode.ts";
import { benchNestedCalls, junctionSandbox } from "./code-mode-sandbox-timings.ts";
import { table } from "./stats.ts";

/** `--name N` from the command line, else `fallback`. */
function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  if (at < 0) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`--${name} takes a whole number of at least 1, not ${process.argv[at + 1]}`);
  return value;
}

/** Three decimals: the figures are tenths of a millisecond, and a change is hundredths. */
const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(3) : "—");

if (import.meta.main) {
  const { nestedCalls, nestedRounds, nestedWarmupRounds } = CODE_MODE_SETTINGS.full;
  const figures = await benchNestedCalls({
    sandbox: junctionSandbox(),
    calls: option("calls", nestedCalls),
    rounds: option("rounds", nestedRounds),
    warmupRounds: option("warmup-rounds", nestedWarmupRounds),
  });
  const rows = figures.map((f) => [
    f.framework,
    ms(f.directMs),
    ms(f.sandboxMs),
    ms(f.agentMs),
    ms(f.cpu.directMs),
    ms(f.cpu.sandboxMs),
    ms(f.cpu.agentMs),
  ]);
  const header = ["", "direct", "sandbox +", "agent +", "CPU direct", "CPU sandbox +", "CPU agent +"];
  process.stdout.write(
    `${table(header, rows)}\n\nms per call, medians over the rounds; load average ${loadavg()[0]!.toFixed(1)} at the end.\n`,
  );
}
