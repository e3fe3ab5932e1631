// Compile-time only (run by `pnpm type-check`): what `dbosAgentRuns` makes is what
// `@junction/mcp-server` drives as `tasks.runs` (its `DurableAgentRuns`), by structure, and the
// status it reports is the one `DurableRunStatus` every engine and the server share. Neither
// package depends on the other at run time; this file fails to compile the day they drift apart.
import type { DurableRunStatus as SharedRunStatus } from "@junction/core/durable-runs";
import type { DurableAgentRuns, DurableRunStatus } from "@junction/mcp-server";
import { type DBOSAgentRunStatus, type DBOSAgentRunsOptions, dbosAgentRuns } from "./dbos-agent-runs.js";

type Assert<T extends true> = T;
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

declare const options: DBOSAgentRunsOptions;

/** Set as a server's `tasks.runs` as it is, without a cast. */
export const runs: DurableAgentRuns = dbosAgentRuns(options);

export type Checks = [
  Assert<Mutual<DBOSAgentRunStatus, DurableRunStatus>>,
  Assert<Mutual<DurableRunStatus, SharedRunStatus>>,
  Assert<Mutual<Awaited<ReturnType<DurableAgentRuns["status"]>>, DBOSAgentRunStatus>>,
];
