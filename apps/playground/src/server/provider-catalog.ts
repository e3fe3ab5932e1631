// The playground's model providers, one owner for them: the settings that shape them (an
// OpenAI-compatible endpoint's URL and model, kept in the store), which are available (a key or a
// URL set), building one, and what a model can do (run programs itself: code mode `provider`).
import { JunctionError, type ModelProvider } from "@junction/types";
import type { CodeModeChoices } from "../shared/api-types.js";
import { providerModeRefusal } from "./code-mode-setting.js";
import {
  createEmbedder,
  createProvider,
  detectProviders,
  modelRunsPrograms,
  type PlaygroundEmbedder,
  type PlaygroundSettings,
  type ProviderInfo,
} from "./providers.js";
import type { Store } from "./store.js";

/** The providers a playground can chat with, from its environment and its stored settings. */
export class ProviderCatalog {
  readonly #store: Store;
  readonly #environment: NodeJS.ProcessEnv;
  readonly #sandbox: string;

  constructor(parts: {
    store: Store;
    /** Where the vendors' keys and endpoints are read from. */
    environment: NodeJS.ProcessEnv;
    /** The folder the offline model's plans may touch (the filesystem server's sandbox). */
    sandbox: string;
  }) {
    this.#store = parts.store;
    this.#environment = parts.environment;
    this.#sandbox = parts.sandbox;
  }

  settings(): PlaygroundSettings {
    const raw = this.#store.getSetting("settings");
    return raw ? (JSON.parse(raw) as PlaygroundSettings) : {};
  }

  /**
   * Sets (or, with an empty value, clears) the OpenAI-compatible endpoint's URL and model. A URL
   * that is not http or https is refused (`invalid-argument`), saying why.
   */
  updateSettings(input: Record<string, unknown>): PlaygroundSettings {
    const next: PlaygroundSettings = { ...this.settings() };
    if ("openaiCompatibleBaseURL" in input) {
      const value = input.openaiCompatibleBaseURL;
      if (value === "" || value === null || value === undefined) delete next.openaiCompatibleBaseURL;
      else next.openaiCompatibleBaseURL = endpointURL(value);
    }
    if ("openaiCompatibleModel" in input) {
      const value = input.openaiCompatibleModel;
      if (typeof value === "string" && value.trim() !== "") next.openaiCompatibleModel = value.trim();
      else delete next.openaiCompatibleModel;
    }
    this.#store.setSetting("settings", JSON.stringify(next));
    return next;
  }

  /** The providers available now, the offline model last. */
  providers(): ProviderInfo[] {
    return detectProviders(this.#environment, this.settings());
  }

  /** A provider available now, by id; undefined when its key or URL is not set. */
  find(providerId: string): ProviderInfo | undefined {
    return this.providers().find((candidate) => candidate.id === providerId);
  }

  /** A provider available now, by id, or `invalid-argument` saying what makes it available. */
  available(providerId: string): ProviderInfo {
    const provider = this.find(providerId);
    if (!provider)
      throw new JunctionError(
        "invalid-argument",
        `The provider ${providerId} is not available (no key or URL set).`,
      );
    return provider;
  }

  /** The `ModelProvider` of provider `providerId`, with this playground's keys and settings. */
  create(providerId: string): Promise<ModelProvider> {
    return createProvider(providerId, this.#setup());
  }

  /** The tool search's embedder of the first provider with an embeddings API whose key is set. */
  embedder(): Promise<PlaygroundEmbedder | undefined> {
    return createEmbedder(this.#environment);
  }

  /**
   * Whether `model` of the provider `providerId` runs programs itself (what code mode `provider`
   * needs); a provider that cannot be built does not.
   */
  async runsPrograms(providerId: string, model: string): Promise<boolean> {
    try {
      return await modelRunsPrograms(providerId, model, this.#setup());
    } catch {
      // A provider whose settings do not build (no URL) runs nothing: refused as not running programs.
      return false;
    }
  }

  /**
   * The code modes `model` of provider `providerId` can have: `off` and `sandbox` always, and
   * `provider` when the model runs programs itself (else why not). An unavailable provider is
   * `invalid-argument`.
   */
  async codeModeChoices(providerId: string, model: string): Promise<CodeModeChoices> {
    const provider = this.available(providerId);
    const chosen = model.trim() || provider.defaultModel;
    if (await this.runsPrograms(provider.id, chosen)) return { modes: ["off", "sandbox", "provider"] };
    return {
      modes: ["off", "sandbox"],
      providerUnavailable: providerModeRefusal({
        provider: provider.id,
        model: chosen,
        choices: '"sandbox" or "off"',
      }),
    };
  }

  /** Refuses (`invalid-argument`) code mode `provider` for a model that does not run programs. */
  async checkProviderMode(providerId: string, model: string): Promise<void> {
    if (await this.runsPrograms(providerId, model)) return;
    throw new JunctionError(
      "invalid-argument",
      providerModeRefusal({ provider: providerId, model, choices: '"sandbox" or "off" for its code mode' }),
    );
  }

  #setup() {
    return { environment: this.#environment, settings: this.settings(), sandbox: this.#sandbox };
  }
}

/** An OpenAI-compatible endpoint's URL as kept (no trailing slash), or `invalid-argument`. */
function endpointURL(value: unknown): string {
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    throw new JunctionError("invalid-argument", `${JSON.stringify(value)} is not a URL.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new JunctionError("invalid-argument", "The OpenAI-compatible URL must be http or https.");
  return url.toString().replace(/\/$/, "");
}
