// The approver's side, in a process of its own with only the system database's URL (what an
// inbox on another machine does). ACTION:
// - `list`: the pending approvals of each of RUN_IDS (comma-separated);
// - `approve`: lists them, and approves each item with answerApproval; an item of a run named
//   in EDITED (a JSON object: run id → arguments) is approved as if it had shown those
//   arguments instead;
// - `recover`: takes over the runs of EXECUTOR_ID with recoverRunsOf.
// Prints its result as JSON on a `result ` line.
import { DBOSClient } from "@dbos-inc/dbos-sdk";
import { argumentsDigest, type PendingToolCall } from "@junction/core";
import { answerApproval, pendingApprovals, recoverRunsOf } from "@junction/dbos";
import { RESULT } from "@junction/durable-engines/agent-worker";
import { errorMessage } from "@junction/types";

const systemDatabaseUrl = process.env.DATABASE_URL!;
const print = (value: unknown) => process.stdout.write(`${RESULT}${JSON.stringify(value)}\n`);

if (process.env.ACTION === "recover") {
  try {
    print({ recovered: await recoverRunsOf({ systemDatabaseUrl, executorId: process.env.EXECUTOR_ID! }) });
  } catch (error) {
    print({ error: errorMessage(error), code: (error as { code?: string }).code });
  }
} else {
  const client = await DBOSClient.create({ systemDatabaseUrl });
  const edited = JSON.parse(process.env.EDITED ?? "{}") as Record<string, unknown>;
  const listed: Record<string, PendingToolCall[]> = {};
  for (const runId of process.env.RUN_IDS!.split(",")) {
    listed[runId] = await pendingApprovals({ client, runId });
    if (process.env.ACTION !== "approve") continue;
    for (const listedItem of listed[runId]!) {
      const item = Object.hasOwn(edited, runId)
        ? { ...listedItem, input: edited[runId], argumentsDigest: await argumentsDigest(edited[runId]) }
        : listedItem;
      await answerApproval({ sender: client, runId, item, decision: "approve" });
    }
  }
  await client.destroy();
  print(listed);
}
