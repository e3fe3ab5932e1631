/**
 * The variables a stdio server inherits beside the SDK's safe defaults (PATH, HOME, USER, …): how
 * to reach the network from here, which servers started with `npx -y` or `uvx` need to download
 * themselves behind a corporate proxy or a TLS-inspecting one. They name certificate files and
 * proxies, not credentials; a proxy URL that carries a user and password is kept out of error
 * messages (see {@link networkEnvironmentSecrets}). API keys and everything else stay behind.
 */
export const NETWORK_ENVIRONMENT_VARIABLES: readonly string[] = [
  // Certificates: Node (npx), OpenSSL and Python's requests/curl (uvx, pip).
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "REQUESTS_CA_BUNDLE",
  "CURL_CA_BUNDLE",
  // Proxies, in both spellings tools read; Node 24 honours them in fetch with NODE_USE_ENV_PROXY.
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "ALL_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  "all_proxy",
  "NODE_USE_ENV_PROXY",
  // npm's own settings for the same, as `npm config` exports them to scripts and users set them.
  "npm_config_proxy",
  "npm_config_https_proxy",
  "npm_config_noproxy",
  "npm_config_cafile",
  "npm_config_ca",
  "npm_config_strict_ssl",
  "npm_config_registry",
];

type Environment = Record<string, string | undefined>;

function processEnvironment(): Environment {
  return (globalThis as { process?: { env?: Environment } }).process?.env ?? {};
}

/** The network variables set in this process, to pass to a stdio server. */
export function networkEnvironment(env: Environment = processEnvironment()): Record<string, string> {
  const result: Record<string, string> = {};
  for (const name of NETWORK_ENVIRONMENT_VARIABLES) {
    const value = env[name];
    if (value !== undefined && value !== "") result[name] = value;
  }
  return result;
}

/** The passed variables that hold credentials (a proxy URL with a user or password), whole. */
export function networkEnvironmentSecrets(env: Environment = processEnvironment()): string[] {
  return Object.values(networkEnvironment(env)).filter((value) => {
    if (!URL.canParse(value)) return false;
    const url = new URL(value);
    return url.username !== "" || url.password !== "";
  });
}
