import { describeEverything } from "./everything-suite.js";
import { everythingEntry } from "./test-support.js";

describeEverything("stdio", async () => ({
  transport: "stdio",
  command: process.execPath,
  args: [everythingEntry, "stdio"],
}));
