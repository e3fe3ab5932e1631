import { ProviderError } from "@junction/types";

/**
 * The `ProviderError` for a vendor SDK's refusal to run in a browser (the Stainless SDKs throw
 * one from their constructor unless given `dangerouslyAllowBrowser`), saying which provider
 * setting turns it off and when that is safe; `undefined` for any other error. The SDK's own
 * message names its constructor, which the provider's user never calls.
 *
 * @example
 * ```ts
 * try {
 *   client = new sdk.default({ apiKey, dangerouslyAllowBrowser: settings.dangerouslyAllowBrowser });
 * } catch (error) {
 *   throw browserRefusalError(error, { provider: "openai", factory: "openai", sdk: "openai" }) ?? error;
 * }
 * ```
 */
export function browserRefusalError(
  error: unknown,
  options: {
    /** The provider's name, as in `ProviderError.provider`. */
    provider: string;
    /** The provider's factory, as the user calls it, for example `"chatCompletions"`. */
    factory: string;
    /** The vendor SDK's package name, for example `"@anthropic-ai/sdk"`. */
    sdk: string;
  },
): ProviderError | undefined {
  if (!(error instanceof Error) || !error.message.includes("dangerouslyAllowBrowser")) return undefined;
  return new ProviderError({
    code: "provider-config-invalid",
    provider: options.provider,
    message:
      `${options.sdk} refuses to run in a browser: an API key in a web page can be read by everyone who opens it. ` +
      `If this page holds no real key (a keyless local server such as Ollama, or a proxy of your own that adds ` +
      `the key), pass ${options.factory}({ dangerouslyAllowBrowser: true }); otherwise call the model from a server.`,
    cause: error,
  });
}
