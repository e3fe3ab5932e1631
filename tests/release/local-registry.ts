// A throwaway npm registry for the release tests: Verdaccio on 127.0.0.1 with its storage, users
// and config in a folder of the test's, serving @junction/* from what is published to it alone
// and everything else through an uplink to the public npm registry.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { consumerEnvironment } from "@junction/consumer-install";

/** A running local registry. */
export interface LocalRegistry {
  /** e.g. `http://127.0.0.1:41234/` (with the trailing slash npm writes). */
  url: string;
  /** A token of a user who may publish, as npm would keep it after `npm login`. */
  token: string;
  /**
   * An npm user config (for `npm_config_userconfig`) naming this registry, with the token read
   * from `NPM_TOKEN` as a maintainer's ~/.npmrc does.
   */
  userconfig: string;
  /** What Verdaccio printed, for a failing test's message. */
  output(): string;
  /** Stops Verdaccio and waits for its process to end. */
  close(): Promise<void>;
}

const launcher = fileURLToPath(new URL("./verdaccio-server.mjs", import.meta.url));

/** Starts Verdaccio with everything it keeps inside `dir`. */
export async function startLocalRegistry(dir: string): Promise<LocalRegistry> {
  await mkdir(join(dir, "storage"), { recursive: true });
  const config = join(dir, "config.yaml");
  await writeFile(
    config,
    [
      `storage: ${JSON.stringify(join(dir, "storage"))}`,
      "auth:",
      "  htpasswd:",
      `    file: ${JSON.stringify(join(dir, "htpasswd"))}`,
      "    max_users: 1",
      "uplinks:",
      "  npmjs:",
      "    url: https://registry.npmjs.org/",
      "    timeout: 60s",
      "packages:",
      // Never from the uplink: a name taken on the public registry must not stand in for ours.
      '  "@junction/*":',
      "    access: $all",
      "    publish: $authenticated",
      '  "**":',
      "    access: $all",
      "    publish: $authenticated",
      "    proxy: npmjs",
      "web:",
      "  enable: false",
      "log: { type: stdout, format: pretty, level: warn }",
      "",
    ].join("\n"),
  );

  const child = spawn(process.execPath, [launcher, config], {
    cwd: dir,
    env: consumerEnvironment(),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`Verdaccio did not start in 30 s:\n${output}`)),
        30_000,
      );
      child.stdout.setEncoding("utf8").on("data", (text: string) => {
        output += text;
        const match = /^listening (\d+)$/m.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(Number(match[1]));
        }
      });
      child.stderr.setEncoding("utf8").on("data", (text: string) => {
        output += text;
      });
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`Verdaccio exited with code ${code} before listening:\n${output}`));
      });
    });
    const url = `http://127.0.0.1:${port}/`;
    const token = await addUser(url, "junction-release-test");
    const userconfig = join(dir, "user.npmrc");
    await writeFile(userconfig, `registry=${url}\n//127.0.0.1:${port}/:_authToken=\${NPM_TOKEN}\n`);
    return { url, token, userconfig, output: () => output, close: () => stop(child, exited) };
  } catch (error) {
    await stop(child, exited);
    throw error;
  }
}

/** Creates a user as `npm adduser` does and returns its token. */
async function addUser(url: string, name: string): Promise<string> {
  const response = await fetch(`${url}-/user/org.couchdb.user:${name}`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name, password: "release-test-password", type: "user", roles: [] }),
  });
  const body = (await response.json()) as { token?: string };
  if (!response.ok || !body.token) {
    throw new Error(`Verdaccio did not create the user ${name}: ${response.status} ${JSON.stringify(body)}`);
  }
  return body.token;
}

/** SIGTERM, then SIGKILL if the process is still there after 5 s. */
async function stop(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}
