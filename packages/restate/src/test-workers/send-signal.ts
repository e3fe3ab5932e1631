// Sends one signal from a process of its own, with only the ingress URL: what a person's
// approval from another machine does.
import { sendSignal } from "@junction/restate";
import * as clients from "@restatedev/restate-sdk-clients";

await sendSignal({
  ingress: clients.connect({ url: process.env.INGRESS_URL! }),
  workflow: process.env.WORKFLOW ?? "two-steps",
  runId: process.env.RUN_ID!,
  name: process.env.SIGNAL_NAME!,
  value: JSON.parse(process.env.SIGNAL_VALUE!),
});
