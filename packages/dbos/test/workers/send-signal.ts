// Sends one signal from a process of its own, with only the system database's URL: what a
// person's approval from another machine does. With ITEM (a call as pendingApprovals listed it),
// it answers that call with answerApproval, bound to its digests, and does not wait for a worker.
import { DBOSClient } from "@dbos-inc/dbos-sdk";
import { answerApproval, sendSignal } from "@junction/dbos";

const client = await DBOSClient.create({ systemDatabaseUrl: process.env.DATABASE_URL! });
if (process.env.ITEM) {
  await answerApproval({
    sender: client,
    runId: process.env.RUN_ID!,
    item: JSON.parse(process.env.ITEM),
    decision: "approve",
    until: "accepted",
  });
} else {
  await sendSignal({
    sender: client,
    runId: process.env.RUN_ID!,
    name: process.env.SIGNAL_NAME!,
    value: JSON.parse(process.env.SIGNAL_VALUE!),
  });
}
await client.destroy();
