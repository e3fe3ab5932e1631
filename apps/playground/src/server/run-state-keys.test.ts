import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openPlayground } from "./app.js";
import { loadRunStateKeys, rotateRunStateKey } from "./run-state-keys.js";

const parent = mkdtempSync(join(tmpdir(), "junction-playground-keys-"));
afterAll(() => rmSync(parent, { recursive: true, force: true }));
let folders = 0;
const folder = () => {
  const directory = join(parent, String(++folders));
  return { directory, file: join(directory, "run-state-key.json") };
};

describe("the run-state key file", () => {
  it("is made once with one 32-byte key, and read back the same on every start", () => {
    const file = join(parent, "made.json");
    const first = loadRunStateKeys(file);
    expect(first).toHaveLength(1);
    expect(first[0]!.id).toMatch(/^\d{4}-\d{2}-\d{2}-[0-9a-f]{8}$/);
    expect(first[0]!.secret).toHaveLength(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadRunStateKeys(file)).toEqual(first);
  });

  it("is tightened to 0600 when it was copied in with a looser mode", () => {
    const file = join(parent, "loose.json");
    loadRunStateKeys(file);
    chmodSync(file, 0o644);
    loadRunStateKeys(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("rotates: the new key first, the older ones kept after it", () => {
    const file = join(parent, "rotated.json");
    const [old] = loadRunStateKeys(file);
    const { id, kept } = rotateRunStateKey(file);
    expect(kept).toBe(1);
    const keys = loadRunStateKeys(file);
    expect(keys.map((key) => key.id)).toEqual([id, old!.id]);
    expect(keys[1]).toEqual(old);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("stops the start with the file's name when it cannot be used, and leaves it as it was", async () => {
    const { directory, file } = folder();
    // The data folder is made by the first start; the key file is then broken by hand.
    const playground = await openPlayground({ directory, environment: {}, seedDefaults: false });
    await playground.close();
    writeFileSync(file, '{"version":1,"keys":[{"id":"short","secret":"c2hvcnQ"}]}');
    await expect(openPlayground({ directory, environment: {}, seedDefaults: false })).rejects.toThrow(
      `The run-state key file ${file} cannot be used: keys[0].secret must be at least 32 bytes, as base64url. ` +
        "Restore it from a backup, or move it away to start with a new key (stored runs waiting for an approval then cannot be resumed).",
    );
    expect(readFileSync(file, "utf8")).toBe('{"version":1,"keys":[{"id":"short","secret":"c2hvcnQ"}]}');
    writeFileSync(file, "not json");
    await expect(openPlayground({ directory, environment: {}, seedDefaults: false })).rejects.toThrow(
      `The run-state key file ${file} cannot be used: it is not JSON (`,
    );
  });
});
