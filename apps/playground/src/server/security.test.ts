import { describe, expect, it } from "vitest";
import { startTestPlayground } from "../../test/test-playground.js";
import { allowedHosts, checkRequest, isLoopbackAddress } from "./security.js";

const port = 4100;
const token = "secret-token";
const request = (headers: Record<string, string>, url = "/api/servers") => ({ headers, url });

describe("checkRequest", () => {
  it("accepts the server's own host with the token in a header or the URL", () => {
    expect(
      checkRequest(request({ host: "127.0.0.1:4100", authorization: "Bearer secret-token" }), {
        port,
        token,
        requireToken: true,
      }),
    ).toBeUndefined();
    expect(
      checkRequest(request({ host: "localhost:4100" }, "/?token=secret-token"), {
        port,
        token,
        requireToken: true,
      }),
    ).toBeUndefined();
  });

  it("refuses a missing or wrong token with 401", () => {
    expect(
      checkRequest(request({ host: "127.0.0.1:4100" }), { port, token, requireToken: true })?.status,
    ).toBe(401);
    expect(
      checkRequest(request({ host: "127.0.0.1:4100", authorization: "Bearer secret-tokeN" }), {
        port,
        token,
        requireToken: true,
      })?.status,
    ).toBe(401);
  });

  it("refuses a rebinding host name or another port with 403, even with the token", () => {
    for (const host of [
      "evil.example:4100",
      "127.0.0.1:4101",
      "127.0.0.1",
      "attacker.127.0.0.1.nip.io:4100",
    ]) {
      const refusal = checkRequest(request({ host, authorization: "Bearer secret-token" }), {
        port,
        token,
        requireToken: true,
      });
      expect(refusal).toEqual({
        status: 403,
        message: `Refused: the Host header ${JSON.stringify(host)} is not this server.`,
      });
    }
  });

  it("refuses a foreign or malformed Origin and a cross-site fetch", () => {
    const base = { host: "127.0.0.1:4100", authorization: "Bearer secret-token" };
    for (const origin of ["http://evil.example", "https://127.0.0.1:4100", "null", "http://127.0.0.1:9999"]) {
      expect(checkRequest(request({ ...base, origin }), { port, token, requireToken: true })?.status).toBe(
        403,
      );
    }
    expect(
      checkRequest(request({ ...base, origin: "http://127.0.0.1:4100" }), {
        port,
        token,
        requireToken: true,
      }),
    ).toBeUndefined();
    expect(
      checkRequest(request({ ...base, "sec-fetch-site": "cross-site" }), { port, token, requireToken: true })
        ?.status,
    ).toBe(403);
  });
});

describe("isLoopbackAddress", () => {
  it("allows loopback addresses only", () => {
    expect(["127.0.0.1", "::1", "localhost", "127.0.0.2"].map(isLoopbackAddress)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(["0.0.0.0", "192.168.1.2", "::", "example.com"].map(isLoopbackAddress)).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect(["127.0.0.256", "127.1", "127.0.0.1.evil.example"].map(isLoopbackAddress)).toEqual([
      false,
      false,
      false,
    ]);
  });
});

// Issue 11, hole 7: `--host 127.0.0.5` was accepted, but its printed URL answered 403.
describe("the address the playground listens on", () => {
  it("is one of the hosts it answers to, for any loopback address", () => {
    expect([...allowedHosts(4100, "127.0.0.5")]).toEqual([
      "127.0.0.1:4100",
      "localhost:4100",
      "[::1]:4100",
      "127.0.0.5:4100",
    ]);
    expect(allowedHosts(4100, "::1").size).toBe(3);
    expect(allowedHosts(4100, "10.0.0.1").has("10.0.0.1:4100")).toBe(false);
    const options = { port, host: "127.0.0.5", token, requireToken: true };
    const auth = { authorization: "Bearer secret-token" };
    expect(checkRequest(request({ ...auth, host: "127.0.0.5:4100" }), options)).toBeUndefined();
    expect(checkRequest(request({ ...auth, host: "127.0.0.6:4100" }), options)?.status).toBe(403);
  });

  it("answers the printed URL on 127.0.0.5", async () => {
    const test = await startTestPlayground({ host: "127.0.0.5", seedDefaults: false });
    try {
      expect(test.url).toMatch(/^http:\/\/127\.0\.0\.5:\d+\/\?token=/);
      const page = await fetch(test.url);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<script src="/assets/app.js"></script>');
      const api = await fetch(`${test.base}/api/servers`, {
        headers: { authorization: `Bearer ${test.token}` },
      });
      expect([api.status, await api.json()]).toEqual([200, []]);
    } finally {
      await test.close();
    }
  });
});
