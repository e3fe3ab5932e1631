// The program in a browser page: runs it with the options the test put in `window.programOptions`
// and leaves its outcome (or its failure) in `window.programOutcome`.
import { runProgram } from "./program.mjs";

window.programOutcome = runProgram(window.programOptions).then(
  (outcome) => ({ outcome }),
  (error) => ({ failed: String(error?.stack ?? error) }),
);
