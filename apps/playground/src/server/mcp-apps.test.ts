import { request } from "node:http";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runChatTurn, startTestPlayground, type TestPlayground } from "../../test/test-playground.js";
import { sandboxProxyDocument } from "./mcp-app-proxy.js";
import { modelVisibleTools, viewLabel } from "./mcp-apps.js";

const appsServer = fileURLToPath(new URL("../__fixtures__/mcp-apps-server.mjs", import.meta.url));
let test: TestPlayground;
let serverId: string;

beforeAll(async () => {
  test = await startTestPlayground({ seedDefaults: false });
  const added = await test.api("POST", "/api/servers", {
    name: "apps",
    config: { command: process.execPath, args: [appsServer, "--allowed-origin", "http://127.0.0.1:4321"] },
  });
  expect(added.body.status).toBe("connected");
  serverId = added.body.id;
});
afterAll(async () => {
  await test?.close();
});

/** An answer of the app origin, read whole. */
interface RawAnswer {
  status: number | undefined;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}
/**
 * As the browser loads the sandbox proxy from the playground's page: into an iframe, under the
 * app's own `<label>.localhost` Host, with the page's origin as the Referer (the page frames with
 * `referrerpolicy="origin"`). Sent to the app origin's loopback address straight, so no resolver
 * is needed for `.localhost` names.
 */
const frame = (url: string, headers: Record<string, string> = {}, method = "GET") =>
  new Promise<RawAnswer>((resolve, reject) => {
    const target = new URL(url);
    request(
      {
        host: "127.0.0.1",
        port: Number(target.port),
        method,
        path: target.pathname,
        headers: { host: target.host, "sec-fetch-dest": "iframe", referer: `${test.base}/`, ...headers },
      },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          body += chunk;
        });
        response.on("end", () =>
          resolve({
            status: response.statusCode,
            headers: { get: (name) => (response.headers[name.toLowerCase()] as string | undefined) ?? null },
            text: async () => body,
          }),
        );
      },
    )
      .on("error", reject)
      .end();
  });
/** The app origin as the page frames it: a `.localhost` name of the app's own, on the app port. */
const viewOriginPattern = () => new RegExp(`^http://[a-z0-9]{32}\\.localhost:${test.appPort}$`);
const rawGet = (port: number, path: string, headers: Record<string, string>) =>
  new Promise<number | undefined>((resolve, reject) => {
    request({ host: "127.0.0.1", port, path, headers }, (response) => {
      response.resume();
      resolve(response.statusCode);
    })
      .on("error", reject)
      .end();
  });

describe("an app's origin and its sandbox proxy", () => {
  const counter = { serverId: "s1", server: "apps", resourceUri: "ui://apps/counter.html" };
  it("gives each app an origin label of its own: per server and resource, or per server and declared domain", () => {
    const label = viewLabel(counter);
    expect(label).toMatch(/^[a-z0-9]{32}$/);
    expect(viewLabel(counter)).toBe(label);
    expect(viewLabel({ ...counter, resourceUri: "ui://apps/other.html" })).not.toBe(label);
    // Another server never shares it, whatever it declares (the same URI, or a domain of the same text).
    expect(viewLabel({ ...counter, serverId: "s2" })).not.toBe(label);
    expect(viewLabel({ ...counter, server: "apps2" })).not.toBe(label);
    expect(viewLabel({ ...counter, serverId: "s2", domain: "ui://apps/counter.html" })).not.toBe(label);
    // A declared domain: one origin for every resource of the server that declares it.
    const domain = viewLabel({ ...counter, domain: "weather.example" });
    expect(domain).not.toBe(label);
    expect(viewLabel({ ...counter, resourceUri: "ui://apps/other.html", domain: "weather.example" })).toBe(
      domain,
    );
    expect(viewLabel({ ...counter, serverId: "s2", domain: "weather.example" })).not.toBe(domain);
  });

  it("builds a proxy that talks to the one page that opened it, and relays nothing reserved for the sandbox", () => {
    const proxy = sandboxProxyDocument("http://127.0.0.1:4000");
    expect(proxy).toContain('const pageOrigin = "http://127.0.0.1:4000";');
    expect(proxy).toContain('const prefix = "ui/notifications/sandbox-";');
    expect(proxy).toContain('view.setAttribute("sandbox", "allow-scripts allow-same-origin");');
    expect(proxy).not.toContain('postMessage(event.data, "*")');
    // The page origin is a checked host, and is written as a JSON string all the same.
    expect(sandboxProxyDocument('http://a"b')).toContain('const pageOrigin = "http://a\\"b";');
    // The view's frame gets no browser feature, unless the app declared some.
    expect(proxy).toContain('view.setAttribute("allow", "");');
    expect(sandboxProxyDocument("http://127.0.0.1:4000", "camera; clipboard-write")).toContain(
      'view.setAttribute("allow", "camera; clipboard-write");',
    );
  });
});

describe("MCP Apps, server side", () => {
  it("advertises the io.modelcontextprotocol/ui extension to every server it connects", async () => {
    const answer = await test.api("POST", `/api/servers/${serverId}/tools/call`, {
      name: "client-capabilities",
    });
    expect(JSON.parse(answer.body.result.content[0].text)).toMatchObject({
      extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } },
    });
  });

  it("lists the tools that have an app, and opens one with the CSP built from its declared domains", async () => {
    expect((await test.api("GET", `/api/servers/${serverId}/apps`)).body).toEqual([
      { tool: "show-counter", resourceUri: "ui://apps/counter.html" },
      { tool: "show-hostile", resourceUri: "ui://apps/hostile.html" },
      { tool: "show-listed", resourceUri: "ui://apps/listed.html" },
      { tool: "show-webrtc", resourceUri: "ui://apps/webrtc.html" },
      { tool: "show-resource-leak", resourceUri: "ui://apps/resource-leak.html" },
    ]);
    const opened = await test.api("POST", `/api/servers/${serverId}/apps`, { tool: "show-counter" });
    expect(opened.status).toBe(200);
    expect(opened.body.viewOrigin).toMatch(viewOriginPattern());
    expect(opened.body.html).toContain("Counter app");
    expect(opened.body).toMatchObject({
      frameUrl: `${opened.body.viewOrigin}/${opened.body.appId}`,
      resourceUri: "ui://apps/counter.html",
      server: "apps",
      tool: { name: "show-counter", annotations: { readOnlyHint: true, openWorldHint: false } },
      csp: {
        connectDomains: ["http://127.0.0.1:4321"],
        resourceDomains: [],
        frameDomains: [],
        baseUriDomains: [],
      },
      requestOrigins: [{ origin: "http://127.0.0.1:4321", via: ["fetch and WebSocket"] }],
      warnings: [],
      // The counter declares no permissions: none granted.
      permissions: {},
      allow: "",
      permissionWarnings: [],
      prefersBorder: true,
    });
    expect(opened.body.appId).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(opened.body.frameUrl).not.toContain(test.token);

    // The iframe has no token: the sandbox proxy is served by its id alone, from the app's origin
    // (a port of its own, a host name of the app's own), with the app's own CSP (which the view in
    // it inherits); only the page that opened it may frame it. The view's HTML is not in it: the
    // page sends that in ui/notifications/sandbox-resource-ready.
    expect(test.appPort).not.toBe(test.port);
    const response = await frame(opened.body.frameUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("content-security-policy")).toBe(
      `default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data: blob:; font-src data:; media-src data: blob:; connect-src http://127.0.0.1:4321; frame-src 'none'; base-uri 'none'; object-src 'none'; worker-src 'none'; manifest-src 'none'; form-action 'none'; frame-ancestors http://127.0.0.1:${test.port}; sandbox allow-scripts allow-same-origin`,
    );
    expect(response.headers.get("x-frame-options")).toBeNull();
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    const proxy = await response.text();
    expect(proxy).toContain("ui/notifications/sandbox-");
    expect(proxy).toContain(`const pageOrigin = "http://127.0.0.1:${test.port}";`);
    expect(proxy).not.toContain("Counter app");
    // Served once: a reload, or an app that learnt the id, gets nothing.
    const again = await frame(opened.body.frameUrl);
    expect(again.status).toBe(404);
    expect(await again.text()).toBe(
      "No such app document: each is served once, into the frame that opened it.",
    );
  });

  it("drops undeclarable CSP values and leaves the app no declared origin", async () => {
    const opened = await test.api("POST", `/api/servers/${serverId}/apps`, { tool: "show-hostile" });
    expect(opened.body.csp.connectDomains).toEqual([]);
    expect(opened.body.warnings).toEqual([
      'csp.connectDomains: "*" is not an origin; ignored.',
      "csp.connectDomains: \"'unsafe-eval'\" is not an origin; ignored.",
      'csp.connectDomains: "http://x; script-src *" is not an origin; ignored.',
    ]);
    const response = await frame(opened.body.frameUrl);
    expect(response.headers.get("content-security-policy")).toContain("connect-src 'none';");
  });

  it("falls back to the resources/list entry's _meta.ui when the read content has none", async () => {
    const opened = await test.api("POST", `/api/servers/${serverId}/apps`, { tool: "show-listed" });
    expect(opened.body.csp.connectDomains).toEqual(["https://listed.example.com"]);
    expect(opened.body.prefersBorder).toBe(false);
    const response = await frame(opened.body.frameUrl);
    expect(response.headers.get("content-security-policy")).toContain(
      "connect-src https://listed.example.com;",
    );
  });

  it("serves an app's sandbox proxy only into the frame of the page that opened it, and nothing else on the app origin", async () => {
    const opened = await test.api("POST", `/api/servers/${serverId}/apps`, { tool: "show-counter" });
    const url = new URL(opened.body.frameUrl);
    const path = url.pathname;
    const other = await test.api("POST", `/api/servers/${serverId}/apps`, { tool: "show-hostile" });
    const otherHost = new URL(other.body.frameUrl).host;
    expect(otherHost).not.toBe(url.host);
    // Each refusal leaves the document in place for its real frame.
    expect((await frame(opened.body.frameUrl, { "sec-fetch-dest": "document" })).status).toBe(404);
    // A fetch (it carries an Origin), a frame opened by an app (its Referer is the app's origin,
    // or none), another app's Host, a rebinding Host, the bare loopback address, anything but GET:
    // refused.
    expect((await frame(opened.body.frameUrl, { origin: `http://${otherHost}` })).status).toBe(403);
    expect((await frame(opened.body.frameUrl, { referer: `http://${otherHost}/` })).status).toBe(404);
    expect((await frame(opened.body.frameUrl, { referer: "" })).status).toBe(404);
    expect((await frame(opened.body.frameUrl, { referer: `${test.base}/?token=${test.token}` })).status).toBe(
      404,
    );
    expect((await frame(opened.body.frameUrl, { host: otherHost })).status).toBe(404);
    expect(await rawGet(test.appPort, path, { host: `evil.example:${test.appPort}` })).toBe(403);
    expect(await rawGet(test.appPort, path, { host: `127.0.0.1:${test.appPort}` })).toBe(403);
    expect(await rawGet(test.appPort, path, { host: `${url.hostname}:1` })).toBe(403);
    expect((await frame(opened.body.frameUrl, {}, "POST")).status).toBe(405);
    // Then the frame loads it, once.
    expect((await frame(opened.body.frameUrl)).status).toBe(200);
    expect((await frame(opened.body.frameUrl)).status).toBe(404);
    expect((await frame(`${opened.body.viewOrigin}/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`)).status).toBe(404);

    // The app origin serves nothing else, token or not: no API, no page, no assets.
    for (const other of ["/", "/api/servers", `/api/servers?token=${test.token}`, "/assets/app.js"]) {
      const answer = await frame(`${opened.body.viewOrigin}${other}`, {
        authorization: `Bearer ${test.token}`,
      });
      expect([other, answer.status]).toEqual([other, 404]);
      expect(answer.headers.get("content-security-policy")).toBe(
        "default-src 'none'; frame-ancestors 'none'; sandbox",
      );
    }
    // And the playground's origin no longer serves app documents.
    const next = await test.api("POST", `/api/servers/${serverId}/apps`, { tool: "show-counter" });
    const id = new URL(next.body.frameUrl).pathname.slice(1);
    expect((await test.api("GET", `/mcp-apps/${id}`)).status).toBe(404);
    expect((await frame(`${test.base}/mcp-apps/${id}`)).status).toBe(401);
  });

  it("frames the app origins, and only them, from the page", async () => {
    const page = await fetch(test.url);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain(
      `frame-src http://*.localhost:${test.appPort};`,
    );
    const opened = await test.api("POST", `/api/servers/${serverId}/apps`, { tool: "show-counter" });
    // Opened by a page on localhost: the app origin is reached, and framed from, under that name.
    const viaLocalhost = await new Promise<string>((resolve, reject) => {
      const body = JSON.stringify({ tool: "show-counter" });
      request(
        {
          host: "127.0.0.1",
          port: test.port,
          method: "POST",
          path: `/api/servers/${serverId}/apps`,
          headers: {
            host: `localhost:${test.port}`,
            authorization: `Bearer ${test.token}`,
            "content-type": "application/json",
          },
        },
        (response) => {
          let text = "";
          response.on("data", (chunk) => {
            text += chunk;
          });
          response.on("end", () => resolve(text));
        },
      )
        .on("error", reject)
        .end(body);
    });
    // Opened by a page on localhost: the same app origin, framed only by that page.
    const local = JSON.parse(viaLocalhost) as { frameUrl: string; viewOrigin: string };
    expect(local.viewOrigin).toBe(opened.body.viewOrigin);
    expect((await frame(local.frameUrl)).status).toBe(404);
    expect((await frame(local.frameUrl, { referer: `http://localhost:${test.port}/` })).status).toBe(200);
  });

  it("previews a ui:// resource without a tool: the same sandboxed document, and no tool calls at all", async () => {
    const opened = await test.api("POST", `/api/servers/${serverId}/apps/preview`, {
      uri: "ui://apps/counter.html",
    });
    expect(opened.status).toBe(200);
    expect(opened.body).not.toHaveProperty("tool");
    expect(opened.body).toMatchObject({
      frameUrl: `${opened.body.viewOrigin}/${opened.body.appId}`,
      resourceUri: "ui://apps/counter.html",
      server: "apps",
      csp: { connectDomains: ["http://127.0.0.1:4321"] },
    });
    const response = await frame(opened.body.frameUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-security-policy")).toContain(
      "sandbox allow-scripts allow-same-origin",
    );
    // Even a read-only tool that an app of a tool call may run unasked.
    const peek = await test.api("POST", `/api/apps/${opened.body.appId}/tools/call`, { name: "peek" });
    expect(peek).toEqual({
      status: 400,
      body: { error: "This app is a preview of a resource, opened without a tool: it may call no tools." },
    });
    const notUi = await test.api("POST", `/api/servers/${serverId}/apps/preview`, {
      uri: "file:///etc/passwd",
    });
    expect(notUi).toEqual({ status: 400, body: { error: "uri must be a ui:// resource URI." } });
  });

  it("lists the resources of a server that does not answer resources/templates/list (it is optional)", async () => {
    const listed = await test.api("GET", `/api/servers/${serverId}/resources`);
    expect(listed.status).toBe(200);
    expect(listed.body.templates).toEqual([]);
    expect(
      listed.body.resources.map((resource: { uri: string; name: string; mimeType: string }) => [
        resource.name,
        resource.uri,
        resource.mimeType,
      ]),
    ).toEqual([
      ["counter.html", "ui://apps/counter.html", "text/html;profile=mcp-app"],
      ["hostile.html", "ui://apps/hostile.html", "text/html;profile=mcp-app"],
      ["webrtc.html", "ui://apps/webrtc.html", "text/html;profile=mcp-app"],
      ["resource-leak.html", "ui://apps/resource-leak.html", "text/html;profile=mcp-app"],
      ["listed.html", "ui://apps/listed.html", "text/html;profile=mcp-app"],
    ]);
  });

  it("refuses to open a tool without an app", async () => {
    const answer = await test.api("POST", `/api/servers/${serverId}/apps`, { tool: "increment" });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe("Server apps has no tool increment with a ui:// app.");
  });

  it("runs an app's tools/call under the chat's policy: read-only closed-world unasked, anything else approved first", async () => {
    const opened = await test.api("POST", `/api/servers/${serverId}/apps`, { tool: "show-counter" });
    const appId = opened.body.appId;
    const peek = await test.api("POST", `/api/apps/${appId}/tools/call`, { name: "peek", arguments: {} });
    expect(peek.body).toEqual({
      result: { content: [{ type: "text", text: "peeked: the server is fine" }], isError: false },
    });

    const asked = await test.api("POST", `/api/apps/${appId}/tools/call`, {
      name: "increment",
      arguments: { count: 4 },
    });
    expect(asked.body).toEqual({
      approval: { id: asked.body.approval.id, name: "apps_increment", input: { count: 4 } },
    });
    const approved = await test.api("POST", `/api/apps/${appId}/approvals/${asked.body.approval.id}`, {
      approve: true,
    });
    expect(approved.body).toEqual({
      result: {
        content: [{ type: "text", text: "The count is now 5." }],
        isError: false,
        structuredContent: { count: 5 },
      },
    });
    // An answer counts once.
    const again = await test.api("POST", `/api/apps/${appId}/approvals/${asked.body.approval.id}`, {
      approve: true,
    });
    expect(again.status).toBe(400);

    const wipe = await test.api("POST", `/api/apps/${appId}/tools/call`, { name: "wipe", arguments: {} });
    const denied = await test.api("POST", `/api/apps/${appId}/approvals/${wipe.body.approval.id}`, {
      approve: false,
    });
    expect(denied.body).toEqual({ denied: true });
  });

  it("refuses calls of tools hidden from apps, unknown tools, bad arguments and unknown apps", async () => {
    const opened = await test.api("POST", `/api/servers/${serverId}/apps`, { tool: "show-counter" });
    const call = (body: unknown, appId = opened.body.appId) =>
      test.api("POST", `/api/apps/${appId}/tools/call`, body);
    expect((await call({ name: "model-only" })).body.error).toBe(
      "The tool model-only is not visible to apps (_meta.ui.visibility).",
    );
    expect((await call({ name: "filesystem_write_file" })).body.error).toBe(
      "Server apps has no tool named filesystem_write_file.",
    );
    const bad = await call({ name: "increment", arguments: { count: "seven" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain("count");
    const unknown = await call({ name: "peek" }, "BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB");
    expect(unknown.body.error).toBe("No such app is open; open its tool's app again.");
  });

  it("lets no more than four calls of one app wait for approval", async () => {
    const opened = await test.api("POST", `/api/servers/${serverId}/apps`, { tool: "show-counter" });
    const call = () =>
      test.api("POST", `/api/apps/${opened.body.appId}/tools/call`, {
        name: "increment",
        arguments: { count: 1 },
      });
    for (let index = 0; index < 4; index++) expect((await call()).body.approval).toBeDefined();
    const fifth = await call();
    expect(fifth.status).toBe(400);
    expect(fifth.body.error).toBe("The app already has 4 calls waiting for approval.");
  });

  it("offers the model no tool that only apps may call, and the offline model opens the counter app", async () => {
    const apps = test.playground.registry.connected().find((server) => server.name === "apps")!;
    const offered = await modelVisibleTools(apps.mcp).listTools({ prefix: "apps" });
    expect(offered.map((tool) => tool.name)).toEqual([
      "apps_show-counter",
      "apps_model-only",
      "apps_wipe",
      "apps_show-hostile",
      "apps_show-listed",
      "apps_show-webrtc",
      "apps_show-resource-leak",
      "apps_client-capabilities",
    ]);
    const conversation = await test.api("POST", "/api/conversations", {});
    const events = await runChatTurn(test, conversation.body.id, { text: "open the counter app" });
    expect(events.find((event) => event.type === "tool-call")).toMatchObject({
      name: "apps_show-counter",
      server: "apps",
    });
    expect(events.find((event) => event.type === "tool-result")?.result).toEqual({
      content: [{ type: "text", text: "The counter starts at 0." }],
      isError: false,
      structuredContent: { count: 0 },
    });
  });
  // Issue 17, hole 5 (the browser test replays an edit): a restart is a new connection too.
  it("keeps an app bound to the connection it was opened on: a restart closes it and tells the pages", async () => {
    const events: unknown[] = [];
    const unlisten = test.playground.hub.listen((event) => {
      if (event.type === "app-closed") events.push(event);
    });
    const opened = await test.api("POST", `/api/servers/${serverId}/apps`, { tool: "show-counter" });
    const appId = opened.body.appId;
    const peek = () => test.api("POST", `/api/apps/${appId}/tools/call`, { name: "peek" });
    expect((await peek()).body.result.content).toEqual([
      { type: "text", text: "peeked: the server is fine" },
    ]);
    const queued = await test.api("POST", `/api/apps/${appId}/tools/call`, {
      name: "increment",
      arguments: { count: 1 },
    });
    const restarted = await test.api("POST", `/api/servers/${serverId}/restart`, {});
    expect(restarted.body.status, JSON.stringify(restarted)).toBe("connected");
    unlisten();
    const closed =
      "This app was closed: server apps was edited, restarted or removed since it opened. Run its tool again to open it on the server as it is now.";
    // Every app open on that connection (this one and those of the tests before) is closed once.
    expect(events.filter((event) => (event as { appId: string }).appId === appId)).toEqual([
      { type: "app-closed", appId, reason: closed },
    ]);
    expect(await peek()).toEqual({ status: 400, body: { error: closed } });
    expect(
      await test.api("POST", `/api/apps/${appId}/approvals/${queued.body.approval.id}`, { approve: true }),
    ).toEqual({ status: 400, body: { error: closed } });
    // An app opened on the new connection works.
    const reopened = await test.api("POST", `/api/servers/${serverId}/apps`, { tool: "show-counter" });
    const again = await test.api("POST", `/api/apps/${reopened.body.appId}/tools/call`, { name: "peek" });
    expect(again.status).toBe(200);
  });
});
