import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { JunctionError } from "@junction/types";
import { afterEach, describe, expect, it } from "vitest";
import { createMCPServer, InMemoryTaskStore, type TaskStore } from "./index.js";
import { fileTaskStore } from "./node.js";

const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

async function taskFile(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), "junction-state-key-"));
  folders.push(folder);
  return join(folder, "tasks.json");
}

/** The error `make` throws. */
function thrown(make: () => unknown): JunctionError {
  try {
    make();
  } catch (error) {
    if (JunctionError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected a JunctionError");
}

const MISSING_KEY =
  "createMCPServer(): `tasks.store` keeps tasks beyond this process, but no `stateKey` is set: each process would sign its tasks with a random key, so after a restart every stored task (a waiting approval too) would be refused. " +
  "Set `stateKey` to a secret of 32 bytes or more, the same in every process that serves this store, e.g. `stateKey: process.env.MCP_STATE_KEY` with a value made once by `node -e \"console.log(crypto.randomBytes(32).toString('base64url'))\"`.";

describe("a task store that outlives the process needs a stateKey", () => {
  it("refuses a fileTaskStore without stateKey at creation, naming stateKey and how to set it", async () => {
    const store = fileTaskStore(await taskFile());
    const error = thrown(() => createMCPServer({ name: "agents", version: "1.0.0", tasks: { store } }));
    expect(error.code).toBe("invalid-argument");
    expect(error.message).toBe(MISSING_KEY);
  });

  it("refuses any store of its own without stateKey, and takes one with it", async () => {
    // A store of one's own (a database), here backed by memory: not the in-memory store itself.
    const records = new InMemoryTaskStore();
    const database: TaskStore = {
      get: records.get.bind(records),
      put: records.put.bind(records),
      delete: records.delete.bind(records),
      list: records.list.bind(records),
    };
    expect(
      thrown(() => createMCPServer({ name: "agents", version: "1.0.0", tasks: { store: database } })).message,
    ).toBe(MISSING_KEY);
    const server = createMCPServer({
      name: "agents",
      version: "1.0.0",
      stateKey: "a state key of thirty-two bytes or more",
      tasks: { store: fileTaskStore(await taskFile()) },
    });
    expect(server.name).toBe("agents");
  });

  it("lets the in-memory store (the default, or given) go without one: its tasks end with the process", () => {
    expect(createMCPServer({ name: "agents", version: "1.0.0", tasks: {} }).name).toBe("agents");
    expect(
      createMCPServer({ name: "agents", version: "1.0.0", tasks: { store: new InMemoryTaskStore() } }).name,
    ).toBe("agents");
  });
});
