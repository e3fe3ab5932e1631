import { describe, expect, it } from "vitest";
import { addressRateKey, MAX_RATE_KEYS, RateLimiter } from "./rate-limit.js";

describe("addressRateKey", () => {
  it("keys an IPv6 address by its /64 network, however it is written", () => {
    expect(addressRateKey("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:1:2::/64");
    expect(addressRateKey("2001:0DB8:0001:0002::1")).toBe("2001:db8:1:2::/64");
    expect(addressRateKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressRateKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(addressRateKey("::1")).toBe("0:0:0:0::/64");
    expect(addressRateKey("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).toBe(addressRateKey("2001:db8:1:2::ffff"));
    expect(addressRateKey("2001:db8:1:3::1")).not.toBe(addressRateKey("2001:db8:1:2::1"));
  });

  it("keys an IPv4 address as itself, also when it comes IPv4-mapped", () => {
    expect(addressRateKey("203.0.113.7")).toBe("203.0.113.7");
    expect(addressRateKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(addressRateKey("::FFFF:203.0.113.7")).toBe("203.0.113.7");
  });
});

describe("RateLimiter", () => {
  it("refuses a client over its rate and lets it in again once the window is over", () => {
    let now = 0;
    const limiter = new RateLimiter({ max: 2, windowMs: 1000, now: () => now });
    expect([limiter.take("a"), limiter.take("a"), limiter.take("a")]).toEqual([undefined, undefined, 1]);
    now = 1000;
    expect(limiter.take("a")).toBeUndefined();
  });

  it("keeps a bounded number of keys when many arrive in one window, still counting the newest", () => {
    let now = 0;
    const limiter = new RateLimiter({ max: 1, windowMs: 60_000, now: () => now });
    for (let index = 0; index < MAX_RATE_KEYS + 20_000; index++) {
      now = index / 1000;
      limiter.take(`client-${index}`);
    }
    expect(limiter.size).toBeLessThanOrEqual(MAX_RATE_KEYS);
    // The newest client is still counted: its second request in the window is refused.
    expect(limiter.take(`client-${MAX_RATE_KEYS + 20_000 - 1}`)).toBe(60);
  });

  it("forgets windows that are over once it holds many keys, and keeps counting the live ones", () => {
    let now = 0;
    const limiter = new RateLimiter({ max: 1, windowMs: 1000, now: () => now });
    limiter.take("live");
    for (let index = 0; index < 10_000; index++) limiter.take(`old-${index}`);
    now = 999;
    expect(limiter.take("live")).toBe(1);
    now = 1500;
    limiter.take("new");
    expect(limiter.size).toBe(1);
    expect(limiter.take("new")).toBe(1);
  });
});
