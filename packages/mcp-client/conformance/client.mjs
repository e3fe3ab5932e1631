#!/usr/bin/env node
// The client under test for @modelcontextprotocol/conformance, built on @junction/mcp-client.
//
//   MCP_CONFORMANCE_SCENARIO=<scenario> node client.mjs <server-url>
//
// The conformance runner starts a server for the scenario, passes its URL as the last
// argument, and judges what this client sends. MCP_CONFORMANCE_CONTEXT carries
// scenario data (pre-registered credentials, keys) as JSON for the scenarios that need it.
// MCP_CONFORMANCE_PROTOCOL_VERSION (set with --spec-version) chooses the lifecycle: a 2025
// revision pins the 2025 handshake; 2026-07-28 uses the default negotiation ("auto").

import { MCP } from "@junction/mcp-client";
import { ClientCredentialsProvider, PrivateKeyJwtProvider } from "@modelcontextprotocol/client";
import {
  AutoApproveOAuthProvider,
  CONFORMANCE_CLIENT_METADATA_URL,
  CONFORMANCE_REDIRECT_URL,
} from "./auto-approve-oauth-provider.mjs";

const CLIENT_NAME = "junction-conformance-client";

/** The `protocolVersion` every connection of this run uses. */
const PROTOCOL_VERSION = (() => {
  const asked = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION;
  if (asked === undefined || asked === "") return "auto";
  return asked >= "2026-07-28" ? "auto" : "2025-11-25";
})();

/** An `MCP` for the scenario's server, speaking the run's protocol revision. */
function connectTo(serverUrl, options = {}) {
  return new MCP({ transport: "http", url: serverUrl, protocolVersion: PROTOCOL_VERSION, ...options });
}

/** Authorization rounds one operation may go through: the first grant, then one step-up. */
const MAX_AUTHORIZATION_ROUNDS = 2;

function log(message) {
  process.stderr.write(`[client] ${message}\n`);
}

function fail(message) {
  throw new Error(message);
}

function readContext(scenario) {
  const raw = process.env.MCP_CONFORMANCE_CONTEXT;
  if (raw === undefined || raw === "") fail(`${scenario} needs MCP_CONFORMANCE_CONTEXT, which is not set`);
  let context;
  try {
    context = JSON.parse(raw);
  } catch (error) {
    fail(`MCP_CONFORMANCE_CONTEXT is not JSON: ${error.message}`);
  }
  if (context === null || typeof context !== "object" || context.name !== scenario) {
    fail(`MCP_CONFORMANCE_CONTEXT is for ${JSON.stringify(context?.name)}, not ${scenario}`);
  }
  return context;
}

function requireString(context, field) {
  const value = context[field];
  if (typeof value !== "string" || value === "")
    fail(`MCP_CONFORMANCE_CONTEXT.${field} must be a non-empty string`);
  return value;
}

function textOf(result) {
  return result.content
    .filter((part) => part.type === "text")
    .map((part) => part.text)
    .join("\n");
}

function expectSuccessfulCall(name, result) {
  if (result.isError) fail(`${name} returned a tool error: ${textOf(result)}`);
  if (result.content.length === 0) fail(`${name} returned no content`);
  log(`${name} -> ${JSON.stringify(result.content)}`);
  return result;
}

async function listToolNames(mcp) {
  const tools = await mcp.listTools();
  const names = tools.map((tool) => tool.name);
  log(`tools: ${names.join(", ") || "(none)"}`);
  return names;
}

function requireTool(names, name) {
  if (!names.includes(name))
    fail(`the server does not list the tool ${name} (it lists: ${names.join(", ")})`);
}

/** True when an error, or any error in its `cause` chain, is the SDK's UnauthorizedError. */
function isUnauthorized(error) {
  for (let current = error; current instanceof Error; current = current.cause) {
    if (current.name === "UnauthorizedError" || current.constructor?.name === "UnauthorizedError")
      return true;
  }
  return false;
}

/**
 * Runs `operation`; when it stops at an authorization redirect, hands the callback parameters
 * the provider collected (code and iss) to `mcp.finishAuth()` and runs it again, for at most MAX_AUTHORIZATION_ROUNDS.
 */
async function authorized({ mcp, provider }, label, operation) {
  for (let round = 1; ; round += 1) {
    try {
      return await operation();
    } catch (error) {
      const callback = isUnauthorized(error) ? provider.takeAuthorizationCode() : undefined;
      if (callback === undefined || round > MAX_AUTHORIZATION_ROUNDS) throw error;
      log(`${label}: authorization needed (round ${round}); exchanging the code`);
      await mcp.finishAuth(callback);
    }
  }
}

// Scenarios ------------------------------------------------------------------------------

/** initialize: the handshake, one request, a clean close. */
async function runInitialize(serverUrl) {
  const mcp = connectTo(serverUrl);
  await mcp.connect();
  log(`connected to ${JSON.stringify(mcp.serverInfo)}`);
  await listToolNames(mcp);
  await mcp.close();
}

/** tools_call: list the tools and call add_numbers with numbers of our own. */
async function runToolsCall(serverUrl) {
  const mcp = connectTo(serverUrl);
  await mcp.connect();
  const names = await listToolNames(mcp);
  requireTool(names, "add_numbers");
  const result = expectSuccessfulCall("add_numbers", await mcp.callTool("add_numbers", { a: 17, b: 25 }));
  if (!textOf(result).includes("42")) fail(`add_numbers(17, 25) did not answer 42: ${textOf(result)}`);
  await mcp.close();
}

/**
 * elicitation-sep1034-client-defaults: the user accepts without filling anything in; the
 * library must fill in the schema's defaults before the answer goes back (SEP-1034).
 */
async function runElicitationDefaults(serverUrl) {
  const requests = [];
  const mcp = connectTo(serverUrl, {
    handlers: {
      elicitation: async (request) => {
        requests.push(request);
        log(`elicitation: ${request.message}`);
        return { action: "accept", content: {} };
      },
    },
  });
  await mcp.connect();
  const names = await listToolNames(mcp);
  requireTool(names, "test_client_elicitation_defaults");
  const result = await mcp.callTool("test_client_elicitation_defaults", {});
  log(`test_client_elicitation_defaults -> ${JSON.stringify(result.content)}`);
  if (requests.length !== 1) fail(`expected one elicitation request, received ${requests.length}`);
  await mcp.close();
}

/**
 * sse-retry: the server closes the tools/call stream before answering; the client must
 * reconnect with GET after the `retry` interval, with Last-Event-ID, and get the answer.
 */
async function runSSERetry(serverUrl) {
  const mcp = connectTo(serverUrl);
  await mcp.connect();
  const names = await listToolNames(mcp);
  requireTool(names, "test_reconnection");
  expectSuccessfulCall("test_reconnection", await mcp.callTool("test_reconnection", {}));
  await mcp.close();
}

/**
 * Every authorization-code scenario: discovery, registration (DCR, CIMD or pre-registered),
 * PKCE, the token exchange, scope selection and step-up all happen inside the SDK's auth
 * flow behind `MCP`; the provider only plays the user agent.
 */
async function runAuthorizationCode(serverUrl, scenario, clientInformation) {
  const provider = new AutoApproveOAuthProvider({
    clientName: CLIENT_NAME,
    clientMetadataUrl: CONFORMANCE_CLIENT_METADATA_URL,
    clientInformation,
    dpop: scenario.startsWith("auth/dpop"),
  });
  const mcp = connectTo(serverUrl, {
    authProvider: provider,
  });
  try {
    await authorized({ mcp, provider }, "connect", () => mcp.connect());
    const names = await authorized({ mcp, provider }, "tools/list", () => listToolNames(mcp));
    requireTool(names, "test-tool");
    const result = await authorized({ mcp, provider }, "tools/call", () => mcp.callTool("test-tool", {}));
    expectSuccessfulCall("test-tool", result);
    log(`${scenario}: ${provider.authorizationCount} authorization request(s)`);
  } finally {
    await mcp.close();
  }
}

/** auth/pre-registration: no DCR; the client id and secret come from the context. */
async function runPreRegistration(serverUrl, scenario) {
  const context = readContext(scenario);
  await runAuthorizationCode(serverUrl, scenario, {
    client_id: requireString(context, "client_id"),
    client_secret: requireString(context, "client_secret"),
    redirect_uris: [CONFORMANCE_REDIRECT_URL],
  });
}

/** auth/client-credentials-*: machine-to-machine, no redirect at all (SDK providers). */
async function runClientCredentials(serverUrl, scenario) {
  const context = readContext(scenario);
  const authProvider =
    scenario === "auth/client-credentials-jwt"
      ? new PrivateKeyJwtProvider({
          clientId: requireString(context, "client_id"),
          privateKey: requireString(context, "private_key_pem"),
          algorithm: context.signing_algorithm ?? "ES256",
        })
      : new ClientCredentialsProvider({
          clientId: requireString(context, "client_id"),
          clientSecret: requireString(context, "client_secret"),
        });
  const mcp = connectTo(serverUrl, {
    authProvider,
  });
  try {
    await mcp.connect();
    await listToolNames(mcp);
  } finally {
    await mcp.close();
  }
}

async function postForm(url, parameters, headers = {}) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(parameters),
  });
  const text = await response.text();
  if (!response.ok) fail(`POST ${url} answered ${response.status}: ${text}`);
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    fail(`POST ${url} answered with something that is not JSON`);
  }
  if (typeof body.access_token !== "string") fail(`POST ${url} answered without an access_token`);
  return body;
}

async function getJSON(url) {
  const response = await fetch(url);
  if (!response.ok) fail(`GET ${url} answered ${response.status}`);
  return response.json();
}

/**
 * auth/cross-app-access-complete-flow (SEP-990): an ID token from the enterprise IdP is
 * exchanged for an ID-JAG, the ID-JAG for an access token at the MCP server's
 * authorization server, and the access token goes to MCP as a plain bearer header.
 */
async function runCrossAppAccess(serverUrl, scenario) {
  const context = readContext(scenario);
  const resourceMetadata = await getJSON(new URL("/.well-known/oauth-protected-resource/mcp", serverUrl));
  const authorizationServer = resourceMetadata.authorization_servers?.[0];
  if (typeof authorizationServer !== "string")
    fail("the protected resource metadata names no authorization server");
  const metadata = await getJSON(new URL("/.well-known/oauth-authorization-server", authorizationServer));
  const jwtBearer = "urn:ietf:params:oauth:grant-type:jwt-bearer";
  if (!metadata.grant_types_supported?.includes(jwtBearer))
    fail("the authorization server does not support the jwt-bearer grant");

  const exchange = await postForm(requireString(context, "idp_token_endpoint"), {
    grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
    requested_token_type: "urn:ietf:params:oauth:token-type:id-jag",
    audience: metadata.issuer,
    resource: resourceMetadata.resource,
    subject_token: requireString(context, "idp_id_token"),
    subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
    client_id: requireString(context, "idp_client_id"),
  });
  const credentials = Buffer.from(
    `${encodeURIComponent(requireString(context, "client_id"))}:${encodeURIComponent(requireString(context, "client_secret"))}`,
  ).toString("base64");
  const token = await postForm(
    metadata.token_endpoint,
    { grant_type: jwtBearer, assertion: exchange.access_token },
    { authorization: `Basic ${credentials}` },
  );

  const mcp = connectTo(serverUrl, {
    headers: { Authorization: `Bearer ${token.access_token}` },
  });
  try {
    await mcp.connect();
    const names = await listToolNames(mcp);
    requireTool(names, "test-tool");
    expectSuccessfulCall("test-tool", await mcp.callTool("test-tool", {}));
  } finally {
    await mcp.close();
  }
}

/**
 * auth/wif-jwt-bearer (SEP-1933, workload identity federation): the workload's JWT from its
 * platform is exchanged at the MCP server's authorization server (RFC 7523 jwt-bearer grant)
 * for an access token, which goes to MCP as a plain bearer header.
 */
async function runWorkloadIdentity(serverUrl, scenario) {
  const context = readContext(scenario);
  const resourceMetadata = await getJSON(new URL("/.well-known/oauth-protected-resource/mcp", serverUrl));
  const authorizationServer = resourceMetadata.authorization_servers?.[0];
  if (typeof authorizationServer !== "string")
    fail("the protected resource metadata names no authorization server");
  const metadata = await getJSON(new URL("/.well-known/oauth-authorization-server", authorizationServer));
  const token = await postForm(metadata.token_endpoint, {
    grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
    assertion: requireString(context, "valid_jwt"),
    client_id: requireString(context, "client_id"),
    resource: resourceMetadata.resource,
  });
  const mcp = connectTo(serverUrl, { headers: { Authorization: `Bearer ${token.access_token}` } });
  try {
    await mcp.connect();
    await listToolNames(mcp);
  } finally {
    await mcp.close();
  }
}

/** request-metadata: every request carries the client's info and capabilities in `_meta`. */
async function runRequestMetadata(serverUrl) {
  const mcp = connectTo(serverUrl, {
    roots: [],
    handlers: {
      sampling: async () => fail("the scenario sends no sampling request"),
      elicitation: async () => ({ action: "decline" }),
    },
  });
  await mcp.connect();
  log(`negotiated ${mcp.protocolVersion}`);
  await listToolNames(mcp);
  await mcp.close();
}

/** http-standard-headers: one request of each kind, each with its Mcp-Method / Mcp-Name headers. */
async function runStandardHeaders(serverUrl) {
  const mcp = connectTo(serverUrl);
  await mcp.connect();
  const [tool] = await mcp.listServerTools();
  if (tool) log(`${tool.name} -> ${JSON.stringify((await mcp.callTool(tool.name, {})).content)}`);
  const [resource] = await mcp.listResources();
  if (resource) await mcp.readResource(resource.uri);
  const [prompt] = await mcp.listPrompts();
  if (prompt) await mcp.getPrompt(prompt.name, {});
  await mcp.close();
}

/** http-custom-headers: the calls the context names, whose x-mcp-header arguments become headers. */
async function runCustomHeaders(serverUrl, scenario) {
  const context = readContext(scenario);
  const mcp = connectTo(serverUrl);
  await mcp.connect();
  await listToolNames(mcp);
  for (const call of context.toolCalls ?? []) {
    const result = await mcp.callTool(call.name, call.arguments ?? {});
    log(`${call.name} -> ${JSON.stringify(result.content)}`);
  }
  await mcp.close();
}

/** http-invalid-tool-headers: tools with invalid x-mcp-header declarations are left out; call the rest. */
async function runInvalidToolHeaders(serverUrl) {
  const mcp = connectTo(serverUrl);
  await mcp.connect();
  for (const name of await listToolNames(mcp)) {
    const result = await mcp.callTool(name, { region: "us-west1" }).catch((error) => error);
    log(`${name} -> ${result instanceof Error ? result.message : JSON.stringify(result.content)}`);
  }
  await mcp.close();
}

/** sep-2322-client-request-state: input_required rounds answered through handlers.elicitation. */
async function runRequestState(serverUrl) {
  const mcp = connectTo(serverUrl, {
    handlers: {
      elicitation: async (request) => {
        log(`elicitation: ${request.message}`);
        return { action: "accept", content: { confirmed: true } };
      },
    },
  });
  await mcp.connect();
  for (const name of [
    "test_mrtr_echo_state",
    "test_mrtr_no_state",
    "test_mrtr_unrelated",
    "test_mrtr_no_result_type",
  ]) {
    const result = await mcp.callTool(name, {}).catch((error) => error);
    log(`${name} -> ${result instanceof Error ? result.message : JSON.stringify(result.content)}`);
  }
  await mcp.close();
}

/** json-schema-ref-no-deref: listing tools must not fetch a schema's network `$ref`. */
async function runRefNoDeref(serverUrl) {
  const mcp = connectTo(serverUrl);
  await mcp.connect();
  log(JSON.stringify(await mcp.listServerTools()));
  await mcp.close();
}

/** json-schema-2020-12-preservation: a tool's inputSchema goes back to the server exactly as sent. */
async function runSchemaPreservation(serverUrl) {
  const mcp = connectTo(serverUrl);
  await mcp.connect();
  const tools = await mcp.listServerTools();
  const focal = tools.find((tool) => tool.name === "json_schema_2020_12_tool");
  if (!focal) fail("json_schema_2020_12_tool is not listed");
  expectSuccessfulCall(
    "json_schema_echo",
    await mcp.callTool("json_schema_echo", { schema: focal.inputSchema }),
  );
  await mcp.close();
}

/**
 * sep-2640-client-no-prefetch: list the server's skills and load none, so no skill file is read
 * ahead of need.
 */
async function runSkillsNoPrefetch(serverUrl) {
  const mcp = connectTo(serverUrl, { skills: true });
  await mcp.connect();
  const { skills, invalid } = await mcp.listSkills();
  log(`skills: ${skills.map((skill) => skill.uri).join(", ") || "(none)"}; invalid: ${invalid.length}`);
  await mcp.close();
}

/**
 * sep-2640-client-verify-{digest,size,frontmatter}: load each listed skill, SKILL.md first (verified
 * against its entry), then its other files. A SKILL.md that fails verification means the skill is
 * not loaded, so none of its other files is read.
 */
async function runSkillsVerify(serverUrl) {
  const mcp = connectTo(serverUrl, { skills: true });
  await mcp.connect();
  try {
    const { skills, invalid } = await mcp.listSkills();
    for (const entry of invalid) log(`refused entry #${entry.index} ${entry.uri ?? ""}: ${entry.reason}`);
    for (const skill of skills) {
      try {
        const document = await mcp.readSkill(skill);
        log(`loaded ${skill.uri}: ${document.bytes.length} bytes, verified ${document.verified}`);
      } catch (error) {
        if (error?.code !== "mcp-skill-verification-failed") throw error;
        log(`not loading ${skill.uri}: ${error.message}`);
        continue;
      }
      for (const file of Array.isArray(skill.resources) ? skill.resources : []) {
        if (file.uri === skill.uri) continue;
        const read = await mcp.readSkillFile(skill, file.uri);
        log(`read ${read.uri}: ${read.bytes.length} bytes, verified ${read.verified}`);
      }
    }
  } finally {
    await mcp.close();
  }
}

const scenarios = {
  initialize: runInitialize,
  tools_call: runToolsCall,
  "elicitation-sep1034-client-defaults": runElicitationDefaults,
  "sse-retry": runSSERetry,
  "auth/pre-registration": runPreRegistration,
  "auth/client-credentials-jwt": runClientCredentials,
  "auth/client-credentials-basic": runClientCredentials,
  "auth/cross-app-access-complete-flow": runCrossAppAccess,
  // The 0.2 name of the same SEP-990 flow.
  "auth/enterprise-managed-authorization": runCrossAppAccess,
  "auth/wif-jwt-bearer": runWorkloadIdentity,
  "request-metadata": runRequestMetadata,
  "http-standard-headers": runStandardHeaders,
  "http-custom-headers": runCustomHeaders,
  "http-invalid-tool-headers": runInvalidToolHeaders,
  "sep-2322-client-request-state": runRequestState,
  "json-schema-ref-no-deref": runRefNoDeref,
  "json-schema-2020-12-preservation": runSchemaPreservation,
  "sep-2640-client-no-prefetch": runSkillsNoPrefetch,
  "sep-2640-client-verify-digest": runSkillsVerify,
  "sep-2640-client-verify-size": runSkillsVerify,
  "sep-2640-client-verify-frontmatter": runSkillsVerify,
};

function handlerFor(scenario) {
  if (Object.hasOwn(scenarios, scenario)) return scenarios[scenario];
  // The other auth/ scenarios vary the server (metadata locations, scopes, token endpoint
  // authentication, CIMD, back-compat); the client behaves the same way in all of them.
  if (scenario.startsWith("auth/"))
    return (serverUrl) => runAuthorizationCode(serverUrl, scenario, undefined);
  return undefined;
}

async function main() {
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO;
  const serverUrl = process.argv.at(-1);
  if (!scenario || process.argv.length < 3 || !/^https?:\/\//.test(serverUrl)) {
    process.stderr.write("usage: MCP_CONFORMANCE_SCENARIO=<scenario> node client.mjs <server-url>\n");
    return 2;
  }
  const handler = handlerFor(scenario);
  if (handler === undefined) {
    process.stderr.write(`client.mjs: no behaviour for the scenario ${scenario}\n`);
    return 2;
  }
  log(`${scenario} against ${serverUrl}`);
  await handler(serverUrl, scenario);
  log(`${scenario}: done`);
  return 0;
}

try {
  process.exitCode = await main();
} catch (error) {
  process.stderr.write(`[client] failed: ${error?.stack ?? error}\n`);
  for (let cause = error?.cause; cause; cause = cause.cause) {
    process.stderr.write(`[client] caused by: ${cause?.stack ?? cause}\n`);
  }
  process.exitCode = 1;
}
// A handle the library leaves open must not hold the runner until its timeout; say so.
setTimeout(() => {
  process.stderr.write("[client] open handles kept the process alive 2 s after the scenario; exiting\n");
  process.exit();
}, 2_000).unref();
