import { getEventListeners } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchWithOwnSignal } from "./fetch-with-own-signal.js";

let server: Server;
let url: string;
beforeAll(async () => {
  // Answers /fast at once; keeps /slow open until the client goes away.
  server = createServer((req, res) => {
    if (req.url === "/fast") res.end("ok");
    else res.writeHead(200).write("started");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("fetchWithOwnSignal", () => {
  it("adds no listener to the caller's signal, however many requests share it", async () => {
    const shared = new AbortController();
    const ownFetch = fetchWithOwnSignal();
    for (let i = 0; i < 50; i++)
      expect(await (await ownFetch(`${url}/fast`, { signal: shared.signal })).text()).toBe("ok");
    expect(getEventListeners(shared.signal, "abort")).toHaveLength(0);
  });

  it("still aborts a request, and its body, when the caller's signal aborts", async () => {
    const shared = new AbortController();
    const response = await fetchWithOwnSignal()(`${url}/slow`, { signal: shared.signal });
    const reader = response.body?.getReader();
    expect(new TextDecoder().decode((await reader?.read())?.value)).toBe("started");
    const pending = reader?.read();
    shared.abort();
    await expect(pending).rejects.toThrow(/abort/i);
  });

  it("uses the fetch it was given", async () => {
    const seen: (AbortSignal | null | undefined)[] = [];
    const given = (async (_input: unknown, init?: RequestInit) => {
      seen.push(init?.signal);
      return new Response("given");
    }) as typeof fetch;
    const signal = new AbortController().signal;
    expect(await (await fetchWithOwnSignal(given)(`${url}/fast`, { signal })).text()).toBe("given");
    expect(await (await fetchWithOwnSignal(given)(`${url}/fast`)).text()).toBe("given");
    expect(seen[0]).toBeInstanceOf(AbortSignal);
    expect(seen[0]).not.toBe(signal);
    expect(seen[1]).toBeUndefined();
  });
});
