// The approver's side, in a process of its own with only the ingress URL (what an inbox on
// another machine does). ACTION `list`: the pending approvals of each of RUN_IDS
// (comma-separated) of WORKFLOW; `approve`: lists them and approves each item with
// answerApproval; an item of a run named in EDITED (a JSON object: run id → arguments) is
// approved as if it had shown those arguments instead. Prints its result as JSON on a `result `
// line.
import { argumentsDigest, type PendingToolCall } from "@junction/core";
import { RESULT } from "@junction/durable-engines/agent-worker";
import { answerApproval, pendingApprovals } from "@junction/restate";
import * as clients from "@restatedev/restate-sdk-clients";

const ingress = clients.connect({ url: process.env.INGRESS_URL! });
const workflow = process.env.WORKFLOW ?? "notes";
const edited = JSON.parse(process.env.EDITED ?? "{}") as Record<string, unknown>;
const listed: Record<string, PendingToolCall[]> = {};
for (const runId of process.env.RUN_IDS!.split(",")) {
  listed[runId] = await pendingApprovals({ ingress, workflow, runId });
  if (process.env.ACTION !== "approve") continue;
  for (const listedItem of listed[runId]!) {
    const item = Object.hasOwn(edited, runId)
      ? { ...listedItem, input: edited[runId], argumentsDigest: await argumentsDigest(edited[runId]) }
      : listedItem;
    await answerApproval({ ingress, workflow, runId, item, decision: "approve" });
  }
}
process.stdout.write(`${RESULT}${JSON.stringify(listed)}\n`);
