// Sends one signal from a process of its own, with only the system database's URL: what a
// person's approval from another machine does.
import { DBOSClient } from "@dbos-inc/dbos-sdk";
import { sendSignal } from "@junction/dbos";

const client = await DBOSClient.create({ systemDatabaseUrl: process.env.DATABASE_URL! });
await sendSignal({
  sender: client,
  runId: process.env.RUN_ID!,
  name: process.env.SIGNAL_NAME!,
  value: JSON.parse(process.env.SIGNAL_VALUE!),
});
await client.destroy();
