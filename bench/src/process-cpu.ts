// CPU time a process has spent, for figures another engineer's load on a shared machine moves far
// less than wall time (bench/results/stable-ratios.md: a ratio moves by about 0.1 over runs, not 0.4–1.7).
// Used by the served-call and client-call benchmarks and by profile-served-calls.ts.
import { readdirSync, readFileSync } from "node:fs";

/**
 * CPU time of every thread of process `pid` so far, in µs, from
 * `/proc/<pid>/task/<tid>/schedstat` (ns on CPU). `NaN` where there is no /proc (not Linux) or
 * the process is gone, so a figure built on it shows as "—" rather than as a wrong number.
 */
export function processCPUMicros(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    let nanoseconds = 0;
    for (const thread of readdirSync(`/proc/${pid}/task`)) {
      try {
        nanoseconds += Number(readFileSync(`/proc/${pid}/task/${thread}/schedstat`, "utf8").split(" ")[0]);
      } catch {
        // A thread that ended between the listing and the read: its time is gone with it.
      }
    }
    return nanoseconds / 1000;
  } catch {
    return Number.NaN;
  }
}

/** CPU time (user + system, every thread) of this process so far, in µs: on every platform. */
export function ownCPUMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/** Whether server CPU figures can be read here (/proc): on Linux. */
export const SERVER_CPU_READABLE = process.platform === "linux";
