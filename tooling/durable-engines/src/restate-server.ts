// The Restate server from npm (@restatedev/restate-server ships the binary), on loopback ports
// in a temp directory, for the tests and benchmarks. Never imported by shipped code.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { arch, platform, tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, waitFor } from "@junction/durable-engines/processes";

/** A running Restate server: its ingress and admin URLs, a restart that keeps its data, a stop. */
export interface RestateServer {
  readonly ingressUrl: string;
  readonly adminUrl: string;
  /** Registers a deployment (a worker's endpoint URL) with the server. */
  register(endpointUrl: string): Promise<void>;
  /** SIGKILL and a start again on the same ports and data: a crash of the server. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

function binaryPath(): string {
  const require = createRequire(import.meta.url);
  const serverPackage = require.resolve("@restatedev/restate-server/package.json");
  const requireFromServer = createRequire(serverPackage);
  return requireFromServer.resolve(`@restatedev/restate-server-${platform()}-${arch()}/bin/restate-server`);
}

async function freshPorts(): Promise<{ ingress: number; admin: number; node: number }> {
  return { ingress: await freePort(), admin: await freePort(), node: await freePort() };
}

async function isReady(ingressUrl: string, adminUrl: string): Promise<boolean> {
  try {
    const [admin, ingress] = await Promise.all([
      fetch(`${adminUrl}/health`),
      fetch(`${ingressUrl}/restate/health`),
    ]);
    return admin.ok && ingress.ok;
  } catch {
    return false; // not listening yet
  }
}

/** Starts a server with its own data directory; the caller stops it (which removes the directory). */
export async function startRestateServer(): Promise<RestateServer> {
  const directory = mkdtempSync(join(tmpdir(), "junction-restate-"));
  const log = join(directory, "server.log");
  let ports = await freshPorts();
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
        const portTaken = /address already in use|AddrInUse/i.test(readFileSync(log, "utf8"));
        if (!portTaken || attempt === 3) throw error;
        await kill();
        ports = await freshPorts();
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
        const response = await fetch(`${adminUrl}/deployments`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ uri: endpointUrl, force: true }),
        });
        if (response.ok) return;
        const reason = `Registering ${endpointUrl} failed: ${response.status} ${await response.text()}`;
        if (attempt === 5) throw new Error(reason);
        await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
      }
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
