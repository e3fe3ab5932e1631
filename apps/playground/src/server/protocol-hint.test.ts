import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { startTestPlayground, type TestPlayground } from "../../test/test-playground.js";
import type { ServerStatus, TrafficLog } from "../shared/api-types.js";
import { parseServerEntry } from "./server-registry.js";
import { configDigest } from "./store.js";

// Issue 18, item 10: the revision a server negotiated is kept in the store with a digest of its
// config, and given back to the client as `protocolVersionHint`, so a restart of the playground
// does not pay the server/discover probe (a legacy server refuses it) again; an edited config
// drops it. (Within one process the client remembers the revision too; the store carries it
// across processes, and the mcp-client's own tests show the hint alone skips the probe.)
const wireServer = fileURLToPath(new URL("../__fixtures__/wire-server.mjs", import.meta.url));

let test: TestPlayground | undefined;
afterEach(async () => {
  await test?.close();
  test = undefined;
});

async function trafficMethods(playground: TestPlayground, id: string): Promise<string[]> {
  const log = (await playground.api<TrafficLog>("GET", `/api/servers/${id}/traffic`)).body;
  return log.entries.flatMap((entry) => (entry.method ? [`${entry.direction} ${entry.method}`] : []));
}

describe("the negotiated protocol revision", () => {
  it("is stored per server and config, used after a restart, and dropped when the config changes", async () => {
    test = await startTestPlayground({ seedDefaults: false });
    const entry = { command: process.execPath, args: [wireServer] };
    const added = await test.api<ServerStatus>("POST", "/api/servers", { name: "wire", config: entry });
    expect(added.body.status).toBe("connected");
    const id = added.body.id;
    expect((await trafficMethods(test, id))[0]).toBe("out server/discover");
    const digest = configDigest(parseServerEntry("wire", entry));
    expect(test.playground.store.getProtocolVersion(id, digest)).toBe("2025-11-25");

    const directory = test.directory;
    await test.close({ keepDirectory: true });
    test = await startTestPlayground({ directory, seedDefaults: false });
    expect(test.playground.registry.status(id).status).toBe("connected");
    const afterRestart = await trafficMethods(test, id);
    expect(afterRestart).not.toContain("out server/discover");
    expect(afterRestart.slice(0, 2)).toEqual(["out initialize", "in initialize"]);

    const edited = { command: process.execPath, args: [wireServer, "--edited"] };
    const saved = await test.api<ServerStatus>("PUT", `/api/servers/${id}`, {
      name: "wire",
      config: edited,
      enabled: true,
    });
    expect(saved.body.status).toBe("connected");
    expect(test.playground.store.getProtocolVersion(id, digest)).toBeUndefined();
    const editedDigest = configDigest(parseServerEntry("wire", edited));
    expect(test.playground.store.getProtocolVersion(id, editedDigest)).toBe("2025-11-25");
  });
});
