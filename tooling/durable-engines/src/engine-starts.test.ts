import { createServer, type Server } from "node:net";
import { freePort } from "@junction/durable-engines/processes";
import { afterEach, describe, expect, it } from "vitest";
import { startPostgres } from "./postgres.ts";
import { type RestatePorts, startRestateServer } from "./restate-server.ts";

// The engines the tests start, started while another process holds a port they were given: a
// free port is bound a moment after it was looked up, and test files run side by side, so one
// can be taken in between. The start must try again on new ports, not fail the test file's
// beforeAll (as Restate's did when it said "Address in use", which the retry did not match).

const held: Server[] = [];
afterEach(async () => {
  for (const server of held.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** A loopback port this process holds until the test ends (a connection to it is dropped at once). */
async function heldPort(): Promise<number> {
  const server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  held.push(server);
  return (server.address() as { port: number }).port;
}

async function freshPorts(): Promise<RestatePorts> {
  return { ingress: await freePort(), admin: await freePort(), node: await freePort() };
}

describe("startRestateServer", () => {
  it("starts again on new ports when one it was given is taken", async () => {
    const taken = await heldPort();
    const handedOut: RestatePorts[] = [];
    const server = await startRestateServer({
      ports: async () => {
        const ports = handedOut.length === 0 ? { ...(await freshPorts()), admin: taken } : await freshPorts();
        handedOut.push(ports);
        return ports;
      },
    });
    try {
      expect(handedOut).toHaveLength(2);
      expect(server.adminUrl).toBe(`http://127.0.0.1:${handedOut[1]!.admin}`);
      expect((await fetch(`${server.adminUrl}/health`)).ok).toBe(true);
    } finally {
      await server.stop();
    }
  });

  it("gives up after three starts on taken ports, with the server's log", async () => {
    const taken = await heldPort();
    await expect(
      startRestateServer({ ports: async () => ({ ...(await freshPorts()), ingress: taken }) }),
    ).rejects.toThrow(/exited \(1\) while starting:[\s\S]*Address in use/);
  });
});

describe("startPostgres", () => {
  it("starts again on a new port when the one it was given is taken", async () => {
    const taken = await heldPort();
    const handedOut: number[] = [];
    const postgres = await startPostgres({
      port: async () => {
        const port = handedOut.length === 0 ? taken : await freePort();
        handedOut.push(port);
        return port;
      },
    });
    try {
      expect(handedOut).toHaveLength(2);
      expect(postgres.port).toBe(handedOut[1]);
      expect(postgres.url("app")).toBe(`postgresql://postgres@127.0.0.1:${handedOut[1]}/app`);
    } finally {
      postgres.stop();
    }
  });
});
