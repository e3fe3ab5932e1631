// Compile-time only (run by `pnpm type-check`): what `restateDurability` makes is core's durability
// port (`Durability`), which an Agent's run journals its steps and waits through, and what its
// `onApprovalRequested` takes is the one `ApprovalNotifier` every engine shares, without a cast.
import type { Durability } from "@junction/core";
import type { ApprovalNotifier as SharedNotifier } from "@junction/core/durable-runs";
import type { WorkflowContext } from "@restatedev/restate-sdk";
import {
  type ApprovalNotifier,
  type RestateDurabilityOptions,
  type RestateWorkflowOptions,
  restateDurability,
} from "./index.js";

type Assert<T extends true> = T;
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

declare const ctx: WorkflowContext;

/** The port an Agent's run is given. */
export const port: Durability = restateDurability(ctx);

export type Checks = [
  Assert<Mutual<ApprovalNotifier, SharedNotifier>>,
  Assert<Mutual<NonNullable<RestateDurabilityOptions["onApprovalRequested"]>, SharedNotifier>>,
  Assert<Mutual<NonNullable<RestateWorkflowOptions["onApprovalRequested"]>, SharedNotifier>>,
];
