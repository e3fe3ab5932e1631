// An OAuthClientProvider for authorization servers that approve without a user: it
// follows the authorization redirect itself and keeps the code for `MCP.finishAuth()`.
// Built for the conformance suite, whose authorization server answers every
// authorization request with a redirect carrying `code=…`.

import { randomBytes } from "node:crypto";
import { DpopSession } from "@modelcontextprotocol/client";

/** Where the authorization server is told to send the browser; nothing listens here. */
export const CONFORMANCE_REDIRECT_URL = "http://localhost:3000/callback";

/** The URL-based client id (CIMD, SEP-991) the conformance server accepts as-is. */
export const CONFORMANCE_CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";

/**
 * Keeps client registration, tokens and the PKCE verifier in memory, exactly as the SDK
 * hands them over (the SDK stamps an `issuer` on them and expects it back unchanged).
 */
export class AutoApproveOAuthProvider {
  #clientName;
  #redirectUrl;
  #clientMetadataUrl;
  #clientInformation;
  #tokens;
  #codeVerifier;
  #state;
  #pendingCode;
  #fetch;
  #dpop;

  /**
   * @param {{ clientName: string; redirectUrl?: string; clientMetadataUrl?: string;
   *   clientInformation?: Record<string, unknown>; fetch?: typeof fetch; dpop?: boolean }} options
   */
  constructor(options) {
    // DPoP (RFC 9449, SEP-1932): one key for the life of the registration; the SDK signs the
    // token request and every MCP request with it.
    this.#dpop = options.dpop ? DpopSession.create() : undefined;
    this.#clientName = options.clientName;
    this.#redirectUrl = options.redirectUrl ?? CONFORMANCE_REDIRECT_URL;
    this.#clientMetadataUrl = options.clientMetadataUrl;
    this.#clientInformation = options.clientInformation;
    this.#fetch = options.fetch ?? globalThis.fetch;
  }

  /** The DPoP session, when this provider asks for sender-constrained tokens. */
  dpop() {
    return this.#dpop;
  }

  get redirectUrl() {
    return this.#redirectUrl;
  }

  get clientMetadataUrl() {
    return this.#clientMetadataUrl;
  }

  get clientMetadata() {
    return {
      client_name: this.#clientName,
      redirect_uris: [this.#redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    };
  }

  /** How many authorization requests this provider has followed. */
  authorizationCount = 0;

  state() {
    this.#state = randomBytes(16).toString("base64url");
    return this.#state;
  }

  clientInformation() {
    return this.#clientInformation;
  }

  saveClientInformation(clientInformation) {
    this.#clientInformation = clientInformation;
  }

  tokens() {
    return this.#tokens;
  }

  saveTokens(tokens) {
    this.#tokens = tokens;
  }

  saveCodeVerifier(codeVerifier) {
    this.#codeVerifier = codeVerifier;
  }

  codeVerifier() {
    if (this.#codeVerifier === undefined) {
      throw new Error("OAuth: no PKCE code verifier was saved before the token exchange");
    }
    return this.#codeVerifier;
  }

  invalidateCredentials(scope) {
    if (scope === "all" || scope === "client") this.#clientInformation = undefined;
    if (scope === "all" || scope === "tokens") this.#tokens = undefined;
    if (scope === "all" || scope === "verifier") this.#codeVerifier = undefined;
  }

  /**
   * Plays the user agent: requests the authorization URL without following the redirect,
   * checks the redirect goes back to our redirect URL with our state, and keeps the code.
   */
  async redirectToAuthorization(authorizationUrl) {
    this.authorizationCount += 1;
    const response = await this.#fetch(authorizationUrl, { redirect: "manual" });
    await response.body?.cancel();
    const location = response.headers.get("location");
    if (response.status < 300 || response.status > 399 || location === null) {
      throw new Error(
        `OAuth: the authorization endpoint answered ${response.status} without a redirect (${authorizationUrl.origin}${authorizationUrl.pathname})`,
      );
    }
    const redirect = new URL(location, authorizationUrl);
    const expected = new URL(this.#redirectUrl);
    if (redirect.origin !== expected.origin || redirect.pathname !== expected.pathname) {
      throw new Error(
        `OAuth: the authorization server redirected to ${redirect.origin}${redirect.pathname}, not to ${this.#redirectUrl}`,
      );
    }
    const error = redirect.searchParams.get("error");
    if (error !== null) {
      const description = redirect.searchParams.get("error_description");
      throw new Error(`OAuth: authorization was refused: ${error}${description ? ` (${description})` : ""}`);
    }
    if (this.#state !== undefined && redirect.searchParams.get("state") !== this.#state) {
      throw new Error("OAuth: the redirect's state does not match the state this client sent");
    }
    const code = redirect.searchParams.get("code");
    if (code === null || code === "") {
      throw new Error("OAuth: the authorization redirect carries no code");
    }
    // The whole callback query, so finishAuth() can check the `iss` the server sent (RFC 9207).
    this.#pendingCode = redirect.searchParams;
  }

  /**
   * The last redirect's callback parameters (`code`, and `iss` when the server sends it), once;
   * `undefined` when no authorization is pending.
   */
  takeAuthorizationCode() {
    const code = this.#pendingCode;
    this.#pendingCode = undefined;
    return code;
  }
}
