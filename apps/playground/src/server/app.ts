import { TraceStore } from "../trace/trace-store.js";
import { ChatService } from "./chat-service.js";
import { type DataDir, prepareDataDir } from "./data-dir.js";
import { ElicitationBroker } from "./elicitation-broker.js";
import { allowedEnvironment } from "./environment-allowance.js";
import { EventHub } from "./event-hub.js";
import type { AppContext } from "./http-server.js";
import { McpApps } from "./mcp-apps.js";
import { MCPEndpoint } from "./mcp-endpoint.js";
import { ProviderCatalog } from "./provider-catalog.js";
import { loadRunStateKeys } from "./run-state-keys.js";
import { createSamplingBridge } from "./sampling-bridge.js";
import { SecretRedactor } from "./secret-redactor.js";
import { ServerRegistry } from "./server-registry.js";
import { Store } from "./store.js";

/** The playground's parts, wired together; `close()` stops every server process. */
export interface Playground extends AppContext {
  dataDir: DataDir;
  close(): Promise<void>;
}

/**
 * Opens the database, adds the default servers on first run and connects every enabled
 * server. Connection failures are kept as the server's status, never thrown.
 */
export async function openPlayground(
  options: {
    directory?: string;
    environment?: NodeJS.ProcessEnv;
    seedDefaults?: boolean;
    /**
     * The variables a server config may expand with `${VAR}` (`--allow-env`). Configs come from
     * the page, so nothing else of the environment, provider keys above all, is reachable.
     * @default []
     */
    allowEnv?: readonly string[];
    /** The loopback address the playground listens on: its MCP endpoint listens there too. */
    host?: string;
  } = {},
): Promise<Playground> {
  const dataDir = prepareDataDir(options.directory);
  // Read before any server starts: a key file that cannot be used stops the start, saying why.
  const runStateKeys = loadRunStateKeys(dataDir.runStateKeyFile);
  const store = new Store(dataDir.databaseFile);
  const redactor = new SecretRedactor();
  const hub = new EventHub({ redact: (text) => redactor.redact(text) });
  const elicitation = new ElicitationBroker(hub);
  const providers = new ProviderCatalog({
    store,
    environment: options.environment ?? process.env,
    sandbox: dataDir.sandbox,
  });
  const sampling = createSamplingBridge({
    elicitation,
    providers: () => providers.providers(),
    createProvider: (id) => providers.create(id),
  });
  // Each run's trace is kept in the store too, so a turn's trace outlives a restart.
  const traces = new TraceStore({ archive: store });
  const registry = new ServerRegistry({
    store,
    dataDir,
    hub,
    elicitation,
    sampling,
    environment: allowedEnvironment(options.environment ?? process.env, options.allowEnv ?? []),
    redactor,
    instrument: (config) => traces.telemetry.instrumentMCP(config),
  });
  // A question from a connection that is gone can no longer be answered to it.
  registry.onConnectionClosed((closed) => elicitation.cancelServer(closed.name));
  const apps = new McpApps(registry, hub);
  const chat = new ChatService({ store, registry, dataDir, traces, providers, runStateKeys });
  await registry.start({ seedDefaults: options.seedDefaults });
  const endpoint = new MCPEndpoint({
    store,
    registry,
    createAgent: () => chat.createServedAgent(),
    ...(options.host ? { host: options.host } : {}),
  });
  // Serving again if it was on when the playground stopped; a failure is kept as its status.
  await endpoint.resume();
  return {
    dataDir,
    store,
    hub,
    elicitation,
    registry,
    providers,
    chat,
    apps,
    traces,
    endpoint,
    async close() {
      await endpoint.close();
      chat.stopAll();
      elicitation.cancelAll();
      await registry.close();
      await traces.close();
      store.close();
    },
  };
}
