// Runs Verdaccio for the registry round-trip test, in a process of its own: listening on
// 127.0.0.1 at a port the system picks, which it prints as `listening <port>` on stdout.
//   node verdaccio-server.mjs <config.yaml>
import { runServer } from "verdaccio";

const server = await runServer(process.argv[2]);
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});
process.on("SIGTERM", () => {
  server.closeAllConnections?.();
  server.close(() => process.exit(0));
});
