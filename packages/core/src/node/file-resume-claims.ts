import { createHash } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ResumeClaims } from "../resume-claims.js";

/**
 * Resume claims as files in `directory` (made if missing, mode 0700): a claim creates a file
 * named by the key's SHA-256 with `O_EXCL`, which exactly one process wins on a local disk (and
 * on NFSv3 and later). For every process on one machine, or sharing the folder, that may resume
 * the same stored states.
 */
export function fileResumeClaims(directory: string): ResumeClaims {
  const ready = mkdir(directory, { recursive: true, mode: 0o700 });
  return {
    claim: async (key) => {
      await ready;
      const name = createHash("sha256").update(key).digest("hex");
      try {
        await writeFile(join(directory, name), `${key}\n`, { flag: "wx", mode: 0o600 });
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
        throw error;
      }
    },
  };
}
