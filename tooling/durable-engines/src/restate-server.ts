// The Restate server from npm (@restatedev/restate-server ships the binary), on loopback ports
// in a temp directory, for the tests and benchmarks. Never imported by shipped code.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { arch, platform, tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, waitFor } from "@junction/durable-engines/processes";
import { errorMessage } from "@junction/types";

/** A running Restate server: its ingress and admin URLs, a restart that keeps its data, a stop. */
export interface RestateServer {
  readonly ingressUrl: string;
  readonly adminUrl: string;
  /** Registers a deployment (a worker's endpoint URL) with the server. */
  register(endpointUrl: string): Promise<void>;
  /**
   * Rows of a query on the server's introspection tables (`sys_invocation`, `sys_journal`, …),
   * through its admin API's SQL endpoint.
   */
  query<Row = Record<string, unknown>>(sql: string): Promise<Row[]>;
  /** SIGKILL and a start again on the same ports and data: a crash of the server. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * How long one request to the server may take before it counts as failed: a port that accepts
 * connections and never answers (another process took it) must not hang a test's hook.
 */
const REQUEST_TIMEOUT_MS = 10_000;

function binaryPath(): string {
  const require = createRequire(import.meta.url);
  const serverPackage = require.resolve("@restatedev/restate-server/package.json");
  const requireFromServer = createRequire(serverPackage);
  return requireFromServer.resolve(`@restatedev/restate-server-${platform()}-${arch()}/bin/restate-server`);
}

/** The server's three loopback ports. */
export interface RestatePorts {
  readonly ingress: number;
  readonly admin: number;
  readonly node: number;
}

async function freshPorts(): Promise<RestatePorts> {
  return { ingress: await freePort(), admin: await freePort(), node: await freePort() };
}

async function isReady(ingressUrl: string, adminUrl: string): Promise<boolean> {
  try {
    const [admin, ingress] = await Promise.all([
      fetch(`${adminUrl}/health`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }),
      fetch(`${ingressUrl}/restate/health`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }),
    ]);
    return admin.ok && ingress.ok;
  } catch {
    return false; // not listening yet, or not answering yet
  }
}

/** Starts a server with its own data directory; the caller stops it (which removes the directory). */
export async function startRestateServer(
  options: {
    /** Where the server's ports come from (a test of the start itself hands out a taken one). */
    ports?: () => Promise<RestatePorts>;
  } = {},
): Promise<RestateServer> {
  const nextPorts = options.ports ?? freshPorts;
  const directory = mkdtempSync(join(tmpdir(), "junction-restate-"));
  const log = join(directory, "server.log");
  let ports = await nextPorts();
  let child: ChildProcess | undefined;
  const urls = () => ({
    ingressUrl: `http://127.0.0.1:${ports.ingress}`,
    adminUrl: `http://127.0.0.1:${ports.admin}`,
  });

  const startOnce = async () => {
    const output = openSync(log, "a");
    child = spawn(
      binaryPath(),
      ["--base-dir", directory, "--listen-mode", "tcp", "--node-name", "junction-test", "--no-logo"],
      {
        stdio: ["ignore", output, output],
        env: {
          ...process.env,
          RESTATE_INGRESS__BIND_ADDRESS: `127.0.0.1:${ports.ingress}`,
          RESTATE_ADMIN__BIND_ADDRESS: `127.0.0.1:${ports.admin}`,
          RESTATE_BIND_ADDRESS: `127.0.0.1:${ports.node}`,
          RESTATE_DEFAULT_NUM_PARTITIONS: "2",
          RESTATE_DISABLE_TELEMETRY: "true",
          RESTATE_ROCKSDB_TOTAL_MEMORY_SIZE: "256MiB",
          RESTATE_LOG_FILTER: "warn",
        },
      },
    );
    const exited = new Promise<never>((_, reject) =>
      child!.once("exit", (code) =>
        reject(
          new Error(`The Restate server exited (${code}) while starting:\n${readFileSync(log, "utf8")}`),
        ),
      ),
    );
    exited.catch(() => {}); // raced below; after a successful start the exit is expected
    const { ingressUrl, adminUrl } = urls();
    await Promise.race([
      // A busy CI machine runs browsers, PostgreSQL and other servers beside this one.
      waitFor(() => isReady(ingressUrl, adminUrl), { timeoutMs: 45_000, what: "the Restate server" }).catch(
        (error: Error) => {
          throw new Error(`${error.message}; its log:\n${readFileSync(log, "utf8")}`);
        },
      ),
      exited,
    ]);
  };

  // Ports come free from the OS and are bound by another process a moment later, so another test
  // process can take one in between: a server that could not bind starts again on new ports (the
  // first start only: a restart keeps its ports, as a real server's clients expect).
  const firstStart = async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await startOnce();
      } catch (error) {
        // Restate 1.7 says "failed binding to address '127.0.0.1:…': Address in use (os error 98)".
        const portTaken = /address (already )?in use|AddrInUse|os error 98/i.test(readFileSync(log, "utf8"));
        // A server that did not become ready is not left running behind the failed start.
        await kill();
        if (!portTaken || attempt === 3) {
          rmSync(directory, { recursive: true, force: true });
          throw error;
        }
        ports = await nextPorts();
      }
    }
  };

  const kill = async () => {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill("SIGKILL");
    await exited;
  };

  await firstStart();
  const { ingressUrl, adminUrl } = urls();
  return {
    ingressUrl,
    adminUrl,
    // The server asks the endpoint for its services while it registers; on a busy machine that
    // request can time out, so registering is tried again a few times before it fails.
    register: async (endpointUrl) => {
      for (let attempt = 1; ; attempt++) {
        let reason: string;
        try {
          const response = await fetch(`${adminUrl}/deployments`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ uri: endpointUrl, force: true }),
            // The server asks the endpoint for its services within this request: give it time.
            signal: AbortSignal.timeout(3 * REQUEST_TIMEOUT_MS),
          });
          if (response.ok) return;
          reason = `Registering ${endpointUrl} failed: ${response.status} ${await response.text()}`;
        } catch (error) {
          reason = `Registering ${endpointUrl} failed: ${errorMessage(error)}`;
        }
        if (attempt === 5) throw new Error(`${reason}; the server's log:\n${readFileSync(log, "utf8")}`);
        await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
      }
    },
    query: async <Row>(sql: string): Promise<Row[]> => {
      const response = await fetch(`${adminUrl}/query`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ query: sql }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`The Restate query ${sql} failed: ${response.status} ${text}`);
      return (JSON.parse(text) as { rows: Row[] }).rows;
    },
    restart: async () => {
      await kill();
      await startOnce();
    },
    stop: async () => {
      await kill();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
