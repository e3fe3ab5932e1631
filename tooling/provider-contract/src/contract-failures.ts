import { errorMessage, isAbortError, type ModelStreamEvent, ProviderError } from "@junction/types";
import { closedLocalURL } from "@junction/wire-fake";
import { afterEach, beforeEach, expect, vi } from "vitest";
import { collect, neutralEvents } from "./collect-events.ts";
import { contractCase } from "./contract-case.ts";
import { heldTurn, textTurn, userRequest } from "./contract-scenarios.ts";
import { expectedEvents } from "./expected-events.ts";
import type { VendorAdapter, VendorFake } from "./vendor-adapter.ts";

/**
 * The failure half of the contract: HTTP errors, retries, errors inside a stream, abort, an endpoint
 * that cannot be reached, a missing key.
 */
export function defineFailureContract(vendor: VendorAdapter): void {
  const contract = contractCase(vendor);
  let fake: VendorFake;
  beforeEach(async () => {
    fake = await vendor.startFake();
  });
  afterEach(async () => {
    await fake.close();
  });
  const request = () => userRequest(vendor.model);

  contract(
    "http-400",
    "throws a 400 as a ProviderError with its status, not retryable, never retried",
    async () => {
      fake.enqueue({ kind: "http-error", status: 400, message: "contract: the request is malformed" });
      const provider = vendor.createProvider({ baseURL: fake.url, maxRetries: 2 });
      const { events, error } = await collect(provider.stream(request()));
      expect(events).toEqual([]);
      expect(ProviderError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({
        code: "provider-api-error",
        provider: vendor.name,
        status: 400,
        retryable: false,
      });
      expect(errorMessage(error)).toContain("contract: the request is malformed");
      expect(fake.requests).toHaveLength(1);
    },
  );

  contract("http-429-retried", "lets the SDK retry a 429 and streams the answer that follows", async () => {
    fake.enqueue(
      { kind: "http-error", status: 429, message: "contract: slow down" },
      { kind: "turn", turn: textTurn },
    );
    const provider = vendor.createProvider({ baseURL: fake.url, maxRetries: 2 });
    const { events, error } = await collect(provider.stream(request()));
    expect(error).toBeUndefined();
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1]?.body).toEqual(fake.requests[0]?.body);
    expect(neutralEvents(events).events).toEqual(expectedEvents(textTurn, vendor.wire));
  });

  contract(
    "http-429-no-retries",
    "throws a 429 as a retryable ProviderError when retries are off",
    async () => {
      fake.enqueue({ kind: "http-error", status: 429, message: "contract: slow down" });
      const provider = vendor.createProvider({ baseURL: fake.url, maxRetries: 0 });
      const { error } = await collect(provider.stream(request()));
      expect(ProviderError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({
        code: "provider-api-error",
        provider: vendor.name,
        status: 429,
        retryable: true,
      });
      expect(fake.requests).toHaveLength(1);
    },
  );

  contract("http-5xx", "throws a 503 as a retryable ProviderError with its status", async () => {
    fake.enqueue({ kind: "http-error", status: 503, message: "contract: try again later" });
    const provider = vendor.createProvider({ baseURL: fake.url, maxRetries: 0 });
    const { error } = await collect(provider.stream(request()));
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: "provider-api-error",
      provider: vendor.name,
      status: 503,
      retryable: true,
    });
    expect(errorMessage(error)).toContain("contract: try again later");
    expect(fake.requests).toHaveLength(1);
  });

  contract(
    "stream-error",
    "throws an error inside a 200 stream as a retryable provider-stream-error, after the text before it",
    async () => {
      fake.enqueue({ kind: "stream-error", text: "Partial", message: "contract: overloaded mid-stream" });
      const provider = vendor.createProvider({ baseURL: fake.url, maxRetries: 0 });
      const { events, error } = await collect(provider.stream(request()));
      expect(events).toEqual([{ type: "text-delta", text: "Partial" }]);
      expect(ProviderError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: "provider-stream-error", provider: vendor.name, retryable: true });
      expect(errorMessage(error)).toContain("contract: overloaded mid-stream");
    },
  );

  const abortedMessage = `The ${vendor.displayName} request was aborted.`;

  contract(
    "abort",
    "stops on abort, with or without a reason: the aborted error naming the vendor, and the HTTP stream closed",
    async () => {
      const held = await vendor.startHeldStream(heldTurn);
      try {
        const controller = new AbortController();
        const provider = vendor.createProvider({ baseURL: held.url, maxRetries: 0 });
        const { events, error } = await collect(
          provider.stream({ ...request(), signal: controller.signal }),
          (event: ModelStreamEvent) => {
            if (event.type === "text-delta") controller.abort(new Error("user pressed stop"));
          },
        );
        expect(events).toEqual([{ type: "text-delta", text: heldTurn.text![0] }]);
        expect(isAbortError(error)).toBe(true);
        expect(error).toMatchObject({ code: "aborted", message: abortedMessage });
        await held.closed;
        expect(held.requests).toHaveLength(1);
      } finally {
        await held.close();
      }
    },
  );

  contract(
    "aborted-before-request",
    "sends nothing when the signal is already aborted, and throws the aborted error",
    async () => {
      const controller = new AbortController();
      controller.abort();
      const provider = vendor.createProvider({ baseURL: fake.url, maxRetries: 0 });
      const { events, error } = await collect(provider.stream({ ...request(), signal: controller.signal }));
      expect(events).toEqual([]);
      expect(isAbortError(error)).toBe(true);
      expect(error).toMatchObject({ code: "aborted", message: abortedMessage });
      expect(fake.requests).toHaveLength(0);
    },
  );

  contract(
    "unreachable",
    "names the URL it tried when nothing listens there, as a retryable error without a status",
    async () => {
      const url = await closedLocalURL();
      const provider = vendor.createProvider({ baseURL: url, maxRetries: 0 });
      const { events, error } = await collect(provider.stream(request()));
      expect(events).toEqual([]);
      expect(ProviderError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({
        code: "provider-api-error",
        provider: vendor.name,
        retryable: true,
        status: undefined,
      });
      expect(errorMessage(error)).toMatch(/^Could not reach .+ at http:\/\/127\.0\.0\.1:\d+/);
      expect(errorMessage(error)).toContain(`at ${url}`);
      expect(errorMessage(error)).toContain(`ECONNREFUSED ${url.slice("http://".length)}`);
    },
  );

  const missing = vendor.missingApiKey;
  if (missing) {
    contract(
      "missing-api-key",
      "reports a missing API key on the first request, not when the provider is made, saying where the key goes",
      async () => {
        for (const variable of missing.environmentVariables) vi.stubEnv(variable, "");
        try {
          const provider = missing.createProvider({ baseURL: fake.url, maxRetries: 0 });
          const { events, error } = await collect(provider.stream(request()));
          expect(events).toEqual([]);
          expect(ProviderError.isInstance(error)).toBe(true);
          expect(error).toMatchObject({
            code: "provider-config-invalid",
            provider: vendor.name,
            message: missing.message,
          });
          expect(fake.requests).toHaveLength(0);
        } finally {
          vi.unstubAllEnvs();
        }
      },
    );
  }
}
