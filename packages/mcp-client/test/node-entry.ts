// Loaded before every test file (vitest.config.ts `setupFiles`): the tests import the package's
// modules from src/ and run on Node.js, so they get what the "node" entry gives a Node.js user,
// the stdio transport. src/stdio-support.test.ts checks the default entry without it.
import "../src/node.js";
