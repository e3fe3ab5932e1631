// A process that only loads the model, awaited at the module's top level, then prints the
// embedder's counts: `node --import ./resolve-typescript.ts load-child.ts`. Node ends a process
// whose top-level await nothing keeps alive (exit code 13), so this ends well only when the
// worker is kept alive while it warms up.
import { miniLM } from "../index.js";

const embed = miniLM({ cacheDirectory: false });
await embed.load();
process.stdout.write(JSON.stringify(embed.stats));
await embed.close();
