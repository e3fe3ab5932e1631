import { ProviderError } from "@junction/types";

/**
 * Reads a provider's API key: the setting first, then each environment variable in order.
 * Values are trimmed, and an empty or whitespace-only value counts as unset. Providers call it
 * on the first request (inside `stream()`), never in their factory, so creating a provider
 * without a key is fine until it is used.
 *
 * @throws `ProviderError` with code `provider-config-invalid` when no key is found, naming the
 * setting and the variables to set.
 *
 * @example
 * ```ts
 * const apiKey = loadApiKey({
 *   apiKey: settings.apiKey,
 *   environmentVariables: ["GEMINI_API_KEY", "GOOGLE_API_KEY"],
 *   provider: "gemini",
 *   label: "Gemini",
 * });
 * ```
 */
export function loadApiKey(options: {
  /** The key the user passed in the provider's settings. */
  apiKey?: string;
  /** Environment variables to try, in order, when `apiKey` is unset. */
  environmentVariables: string[];
  /** The provider's name, as in `ProviderError.provider` (for example `"anthropic"`). */
  provider: string;
  /**
   * The provider's name as people write it, for the message.
   * @default the `provider` name
   */
  label?: string;
  /**
   * The setting's name, for the message.
   * @default "apiKey"
   */
  settingName?: string;
}): string {
  const fromSetting = loadSetting({ value: options.apiKey });
  if (fromSetting !== undefined) return fromSetting;
  for (const variable of options.environmentVariables) {
    const fromEnvironment = loadSetting({ environmentVariable: variable });
    if (fromEnvironment !== undefined) return fromEnvironment;
  }
  const [first, ...others] = options.environmentVariables;
  const environment =
    first === undefined ? "" : ` or set ${first}${others.length > 0 ? ` (or ${others.join(", or ")})` : ""}`;
  throw new ProviderError({
    code: "provider-config-invalid",
    provider: options.provider,
    message: `${options.label ?? options.provider} API key is missing: pass ${options.settingName ?? "apiKey"}${environment}.`,
  });
}

/**
 * Reads an optional setting such as a base URL: the value passed in, else the environment
 * variable. Trimmed; empty or whitespace-only counts as unset and gives `undefined`. Works
 * where there is no `process` (browsers, edge runtimes): the environment is then empty.
 *
 * @example
 * ```ts
 * const baseURL = loadSetting({ value: settings.baseURL, environmentVariable: "ANTHROPIC_BASE_URL" });
 * ```
 */
export function loadSetting(options: { value?: string; environmentVariable?: string }): string | undefined {
  const value = trimmed(options.value);
  if (value !== undefined || options.environmentVariable === undefined) return value;
  return trimmed(readEnvironment(options.environmentVariable));
}

function trimmed(value: string | undefined): string | undefined {
  const text = value?.trim();
  return text === undefined || text === "" ? undefined : text;
}

function readEnvironment(variable: string): string | undefined {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[variable];
}
