// Compile-time only (run by `pnpm type-check`): every interface this package implements, and every
// type it shares, by structure. What `restateDurability` makes is core's durability port
// (`Durability`) and its `onApprovalRequested` the one `ApprovalNotifier` every engine shares; what
// `restateAgentRuns` makes is what `@junction/mcp-server` drives as `tasks.runs` (its
// `DurableAgentRuns`), and the status it reports the one `DurableRunStatus` every engine and the
// server share. Neither this package nor the server depends on the other at run time; this file
// fails to compile the day they drift apart.
import type { Durability } from "@junction/core";
import type {
  ApprovalNotifier as SharedNotifier,
  DurableRunStatus as SharedRunStatus,
} from "@junction/core/durable-runs";
import type { DurableAgentRuns, DurableRunStatus } from "@junction/mcp-server";
import type { WorkflowContext } from "@restatedev/restate-sdk";
import {
  type ApprovalNotifier,
  type RestateAgentRunStatus,
  type RestateAgentRunsOptions,
  type RestateDurabilityOptions,
  type RestateWorkflowOptions,
  restateAgentRuns,
  restateDurability,
} from "./index.js";

type Assert<T extends true> = T;
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

declare const ctx: WorkflowContext;
declare const options: RestateAgentRunsOptions;

/** The port an Agent's run is given. */
export const port: Durability = restateDurability(ctx);

/** Set as a server's `tasks.runs` as it is, without a cast. */
export const runs: DurableAgentRuns = restateAgentRuns(options);

export type Checks = [
  Assert<Mutual<ApprovalNotifier, SharedNotifier>>,
  Assert<Mutual<NonNullable<RestateDurabilityOptions["onApprovalRequested"]>, SharedNotifier>>,
  Assert<Mutual<NonNullable<RestateWorkflowOptions["onApprovalRequested"]>, SharedNotifier>>,
  Assert<Mutual<RestateAgentRunStatus, DurableRunStatus>>,
  Assert<Mutual<DurableRunStatus, SharedRunStatus>>,
  Assert<Mutual<Awaited<ReturnType<DurableAgentRuns["status"]>>, RestateAgentRunStatus>>,
];
