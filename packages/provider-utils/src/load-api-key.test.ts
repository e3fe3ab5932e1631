import { ProviderError } from "@junction/types";
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadApiKey, loadSetting } from "./load-api-key.js";

afterEach(() => {
  vi.unstubAllEnvs();
});

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("loadApiKey", () => {
  it("prefers the setting, trimmed, over the environment", () => {
    vi.stubEnv("JUNCTION_TEST_KEY_A", "from-env");
    expect(
      loadApiKey({
        apiKey: "  from-setting\n",
        environmentVariables: ["JUNCTION_TEST_KEY_A"],
        provider: "x",
      }),
    ).toBe("from-setting");
  });

  it("treats an empty or whitespace setting as unset and tries each variable in order", () => {
    vi.stubEnv("JUNCTION_TEST_KEY_A", "   ");
    vi.stubEnv("JUNCTION_TEST_KEY_B", " second ");
    vi.stubEnv("JUNCTION_TEST_KEY_C", "third");
    expect(
      loadApiKey({
        apiKey: " ",
        environmentVariables: ["JUNCTION_TEST_KEY_A", "JUNCTION_TEST_KEY_B", "JUNCTION_TEST_KEY_C"],
        provider: "x",
      }),
    ).toBe("second");
  });

  it("throws provider-config-invalid naming the setting and every variable", () => {
    vi.stubEnv("JUNCTION_TEST_KEY_A", "");
    const error = thrown(() =>
      loadApiKey({
        environmentVariables: ["JUNCTION_TEST_KEY_A", "JUNCTION_TEST_KEY_B"],
        provider: "gemini",
        label: "Gemini",
      }),
    );
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: "provider-config-invalid",
      provider: "gemini",
      retryable: false,
      message: "Gemini API key is missing: pass apiKey or set JUNCTION_TEST_KEY_A (or JUNCTION_TEST_KEY_B).",
    });
  });

  it("names a custom setting, one variable, and falls back to the provider name", () => {
    const error = thrown(() =>
      loadApiKey({
        environmentVariables: ["JUNCTION_TEST_KEY_UNSET"],
        provider: "acme",
        settingName: "token",
      }),
    );
    expect((error as Error).message).toBe(
      "acme API key is missing: pass token or set JUNCTION_TEST_KEY_UNSET.",
    );
    const none = thrown(() => loadApiKey({ environmentVariables: [], provider: "acme" }));
    expect((none as Error).message).toBe("acme API key is missing: pass apiKey.");
  });
});

describe("loadSetting", () => {
  it("returns the value trimmed, else the variable trimmed, else undefined", () => {
    vi.stubEnv("JUNCTION_TEST_URL", " http://env.test/v1 ");
    expect(loadSetting({ value: " http://setting.test ", environmentVariable: "JUNCTION_TEST_URL" })).toBe(
      "http://setting.test",
    );
    expect(loadSetting({ value: "  ", environmentVariable: "JUNCTION_TEST_URL" })).toBe("http://env.test/v1");
    expect(loadSetting({ environmentVariable: "JUNCTION_TEST_URL" })).toBe("http://env.test/v1");
    vi.stubEnv("JUNCTION_TEST_URL", "\t");
    expect(loadSetting({ environmentVariable: "JUNCTION_TEST_URL" })).toBeUndefined();
    expect(loadSetting({ value: "" })).toBeUndefined();
    expect(loadSetting({})).toBeUndefined();
  });

  it("reads no environment where there is no process", () => {
    vi.stubEnv("JUNCTION_TEST_URL", "http://env.test");
    const original = globalThis.process;
    vi.stubGlobal("process", undefined);
    try {
      expect(loadSetting({ environmentVariable: "JUNCTION_TEST_URL" })).toBeUndefined();
    } finally {
      vi.stubGlobal("process", original);
      vi.unstubAllGlobals();
    }
  });
});
