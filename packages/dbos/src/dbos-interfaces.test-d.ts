// Compile-time only (run by `pnpm type-check`): every interface this package implements, and every
// type it shares, by structure. What `dbosDurability` makes is core's durability port
// (`Durability`) and its `onApprovalRequested` the one `ApprovalNotifier` every engine shares; what
// `dbosAgentRuns` makes is what `@junction/mcp-server` drives as `tasks.runs` (its
// `DurableAgentRuns`), and the status it reports the one `DurableRunStatus` every engine and the
// server share. Neither this package nor the server depends on the other at run time; this file
// fails to compile the day they drift apart.
import type { Durability } from "@junction/core";
import type {
  ApprovalNotifier as SharedNotifier,
  DurableRunStatus as SharedRunStatus,
} from "@junction/core/durable-runs";
import type { DurableAgentRuns, DurableRunStatus } from "@junction/mcp-server";
import {
  type ApprovalNotifier,
  type DBOSAgentRunStatus,
  type DBOSAgentRunsOptions,
  type DBOSDurabilityOptions,
  dbosAgentRuns,
  dbosDurability,
} from "./index.js";

type Assert<T extends true> = T;
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

declare const options: DBOSAgentRunsOptions;

/** The port an Agent's run is given. */
export const port: Durability = dbosDurability();

/** Set as a server's `tasks.runs` as it is, without a cast. */
export const runs: DurableAgentRuns = dbosAgentRuns(options);

export type Checks = [
  Assert<Mutual<ApprovalNotifier, SharedNotifier>>,
  Assert<Mutual<NonNullable<DBOSDurabilityOptions["onApprovalRequested"]>, SharedNotifier>>,
  Assert<Mutual<DBOSAgentRunStatus, DurableRunStatus>>,
  Assert<Mutual<DurableRunStatus, SharedRunStatus>>,
  Assert<Mutual<Awaited<ReturnType<DurableAgentRuns["status"]>>, DBOSAgentRunStatus>>,
];
