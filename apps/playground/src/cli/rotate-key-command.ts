import { prepareDataDir } from "../server/data-dir.js";
import { rotateRunStateKey } from "../server/run-state-keys.js";
import { toTerminalText as safe } from "./terminal-text.js";

/** `rotate-key`: a new key signs from the next start on; the older ones stay to verify. */
export function runRotateKeyCommand(directory: string | undefined): number {
  const { runStateKeyFile } = prepareDataDir(directory);
  const { id, kept } = rotateRunStateKey(runStateKeyFile);
  process.stdout.write(
    `New run-state key ${safe(id)} in ${safe(runStateKeyFile)}; ${kept === 1 ? "1 older key" : `${kept} older keys`} kept, so the runs they signed still resume.\n` +
      "Restart a running playground to sign with it.\n",
  );
  return 0;
}
