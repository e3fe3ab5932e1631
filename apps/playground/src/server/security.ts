import { randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

/** A fresh random token for one run of the playground, carried in the URL it prints. */
export function createToken(): string {
  return randomBytes(24).toString("base64url");
}

/**
 * The hosts a loopback server answers to: the usual loopback names and the address it listens on
 * (any of 127.0.0.0/8, so the URL it prints always works); anything else is a DNS-rebinding attempt.
 */
export function allowedHosts(port: number, listenHost?: string): Set<string> {
  const hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
  if (listenHost !== undefined && isLoopbackAddress(listenHost)) {
    const shown = listenHost.includes(":") ? `[${listenHost}]` : listenHost;
    hosts.add(`${shown.toLowerCase()}:${port}`);
  }
  return hosts;
}

/** Whether an address is a loopback one the playground may listen on. */
export function isLoopbackAddress(host: string): boolean {
  if (host === "::1" || host.toLowerCase() === "localhost") return true;
  const match = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return match?.slice(1).every((octet) => Number(octet) <= 255) ?? false;
}

/** Why a request was refused, or `undefined` when it may proceed. */
export interface Refusal {
  status: 401 | 403;
  message: string;
}

/**
 * Checks a request's Host and Origin against the server's own address (CVE-2025-49596: a page
 * on another site, or a rebinding DNS name, must not reach the local server) and, for
 * `requireToken`, the per-run token from the `Authorization: Bearer` header or `?token=`.
 */
export function checkRequest(
  request: Pick<IncomingMessage, "headers" | "url">,
  options: { port: number; host?: string; token: string; requireToken: boolean },
): Refusal | undefined {
  const hosts = allowedHosts(options.port, options.host);
  const host = request.headers.host;
  if (!host || !hosts.has(host.toLowerCase())) {
    return {
      status: 403,
      message: `Refused: the Host header ${JSON.stringify(host ?? "")} is not this server.`,
    };
  }
  const origin = request.headers.origin;
  if (origin !== undefined) {
    let originHost: string | undefined;
    try {
      const url = new URL(origin);
      originHost = url.protocol === "http:" ? url.host.toLowerCase() : undefined;
    } catch {
      originHost = undefined;
    }
    if (!originHost || !hosts.has(originHost)) {
      return { status: 403, message: `Refused: the Origin ${JSON.stringify(origin)} is not this server.` };
    }
  }
  const fetchSite = request.headers["sec-fetch-site"];
  if (fetchSite === "cross-site") {
    return { status: 403, message: "Refused: a cross-site request." };
  }
  if (!options.requireToken) return undefined;
  const presented = tokenOf(request);
  if (!presented || !sameToken(presented, options.token)) {
    return {
      status: 401,
      message: "Refused: a missing or wrong token. Open the URL with ?token=… that the playground printed.",
    };
  }
  return undefined;
}

function tokenOf(request: Pick<IncomingMessage, "headers" | "url">): string | undefined {
  const authorization = request.headers.authorization;
  if (typeof authorization === "string" && authorization.startsWith("Bearer ")) {
    return authorization.slice("Bearer ".length).trim();
  }
  const url = new URL(request.url ?? "/", "http://localhost");
  return url.searchParams.get("token") ?? undefined;
}

function sameToken(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
