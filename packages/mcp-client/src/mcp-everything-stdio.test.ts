import { describeEverything } from "../test/everything-suite.js";
import { everythingEntry } from "../test/test-support.js";

describeEverything("stdio", async () => ({
  transport: "stdio",
  command: process.execPath,
  args: [everythingEntry, "stdio"],
}));
