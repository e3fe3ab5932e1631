// Sends one signal from a process of its own, with only the ingress URL: what a person's
// approval from another machine does. With ITEM (a call as pendingApprovals listed it), it
// answers that call with answerApproval, bound to its digests, and does not wait for a worker.
import { answerApproval, sendSignal } from "@junction/restate";
import * as clients from "@restatedev/restate-sdk-clients";

const target = {
  ingress: clients.connect({ url: process.env.INGRESS_URL! }),
  workflow: process.env.WORKFLOW ?? "two-steps",
  runId: process.env.RUN_ID!,
};
if (process.env.ITEM) {
  await answerApproval({
    ...target,
    item: JSON.parse(process.env.ITEM),
    decision: "approve",
    until: "accepted",
  });
} else {
  await sendSignal({
    ...target,
    name: process.env.SIGNAL_NAME!,
    value: JSON.parse(process.env.SIGNAL_VALUE!),
  });
}
