// Runs the program in the runtime that runs this file (node, bun, deno) and prints its outcome
// as one line of JSON. The options come as JSON in the first argument.
import { runProgram } from "./program.mjs";

const options = JSON.parse(process.argv[2] ?? "{}");
const outcome = await runProgram(options);
process.stdout.write(`${JSON.stringify(outcome)}\n`);
