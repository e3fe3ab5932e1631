import { type Embedder, JunctionError, type ModelProvider } from "@junction/types";
import type { PlaygroundSettings, ProviderInfo } from "../shared/api-types.js";
import { runsPrograms } from "./code-mode-setting.js";
import { createOfflineModel } from "./offline-model.js";

/** A model provider the chat can use: the shared contract. */
/** Settings the UI can change; kept in the database: the shared contract. */
export type { PlaygroundSettings, ProviderInfo } from "../shared/api-types.js";

/**
 * The providers available now: one per vendor key in the environment, an OpenAI-compatible
 * endpoint when a URL is set, and always the offline scripted model (last, unless it is alone).
 */
export function detectProviders(
  environment: NodeJS.ProcessEnv,
  settings: PlaygroundSettings,
): ProviderInfo[] {
  const providers: ProviderInfo[] = [];
  if (environment.ANTHROPIC_API_KEY) {
    providers.push({
      id: "anthropic",
      label: "Anthropic",
      source: "ANTHROPIC_API_KEY",
      defaultModel: "claude-sonnet-5-5",
      models: ["claude-sonnet-5-5", "claude-opus-5-5", "claude-haiku-5-5"],
    });
  }
  if (environment.OPENAI_API_KEY) {
    providers.push({
      id: "openai",
      label: "OpenAI (Responses API)",
      source: "OPENAI_API_KEY",
      defaultModel: "gpt-5-mini",
      models: ["gpt-5-mini", "gpt-5", "gpt-5.6", "gpt-4.1", "gpt-4.1-mini"],
    });
  }
  const geminiVariable = environment.GEMINI_API_KEY
    ? "GEMINI_API_KEY"
    : environment.GOOGLE_API_KEY
      ? "GOOGLE_API_KEY"
      : undefined;
  if (geminiVariable) {
    providers.push({
      id: "gemini",
      label: "Google Gemini",
      source: geminiVariable,
      defaultModel: "gemini-2.5-flash",
      models: ["gemini-2.5-flash", "gemini-2.5-pro"],
    });
  }
  const awsSource = awsCredentialsSource(environment);
  if (awsSource) {
    providers.push({
      id: "bedrock",
      label: "Amazon Bedrock",
      source: awsSource,
      defaultModel: "us.amazon.nova-pro-v1:0",
      models: [
        "us.amazon.nova-pro-v1:0",
        "us.amazon.nova-lite-v1:0",
        "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
      ],
    });
  }
  const compatibleURL = settings.openaiCompatibleBaseURL || environment.OPENAI_COMPATIBLE_BASE_URL;
  if (compatibleURL) {
    const model = settings.openaiCompatibleModel || environment.OPENAI_COMPATIBLE_MODEL || "llama3.2";
    providers.push({
      id: "openai-compatible",
      label: `OpenAI-compatible (${compatibleURL})`,
      source: settings.openaiCompatibleBaseURL ? "setting" : "OPENAI_COMPATIBLE_BASE_URL",
      defaultModel: model,
      models: [model],
    });
  }
  providers.push({
    id: "offline",
    label: "Offline scripted model (not an LLM)",
    source: "built in, no key needed",
    defaultModel: "offline-scripted",
    models: ["offline-scripted"],
  });
  return providers;
}

/** What makes each provider available, as a person sets it: named when one is asked for but missing. */
const providerRequirements: Record<string, string> = {
  anthropic: "set ANTHROPIC_API_KEY",
  openai: "set OPENAI_API_KEY",
  gemini: "set GEMINI_API_KEY (or GOOGLE_API_KEY)",
  bedrock: "set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_BEARER_TOKEN_BEDROCK or AWS_PROFILE",
  "openai-compatible": "set OPENAI_COMPATIBLE_BASE_URL (or the endpoint in the web app)",
};

/**
 * Why a provider asked for by id is not available, and what to do: the variable to set for a
 * known provider, the known ids for any other.
 */
export function unavailableProviderMessage(id: string, available: readonly ProviderInfo[]): string {
  const availableIds = available.map((provider) => provider.id).join(", ");
  const requirement = providerRequirements[id];
  return requirement
    ? `The provider ${id} is not available; available: ${availableIds}. To use it, ${requirement}.`
    : `There is no provider ${id}; the providers are ${[...Object.keys(providerRequirements), "offline"].join(", ")} (available now: ${availableIds}).`;
}

/** What {@link createProvider} builds a provider from. */
export interface ProviderSetup {
  /** Where API keys and base URLs come from. */
  environment: NodeJS.ProcessEnv;
  settings: PlaygroundSettings;
  /** The folder the offline model's plans may touch (the filesystem server's sandbox). */
  sandbox: string;
}

/**
 * Creates the `ModelProvider` for one of the detected providers. Vendor packages load lazily.
 * Bedrock takes its region (`AWS_REGION` or `AWS_DEFAULT_REGION`), credentials and
 * `BEDROCK_BASE_URL` (its endpoint, for a VPC endpoint or a local fake) from `environment` too.
 * `ANTHROPIC_BASE_URL`, `OPENAI_BASE_URL` and `GEMINI_BASE_URL` (or `GOOGLE_GEMINI_BASE_URL`)
 * in `environment` point a vendor at a gateway or proxy; each means what its provider's
 * `baseURL` means (Anthropic without `/v1`, OpenAI with `/v1`, Gemini the host alone).
 */
export async function createProvider(id: string, setup: ProviderSetup): Promise<ModelProvider> {
  const { environment, settings } = setup;
  switch (id) {
    case "anthropic": {
      const { anthropic } = await import("@junction/provider-anthropic");
      return anthropic({
        apiKey: environment.ANTHROPIC_API_KEY,
        ...baseURLOption(environment.ANTHROPIC_BASE_URL),
      });
    }
    case "openai": {
      const { openai } = await import("@junction/provider-openai");
      // Passed from the playground's environment: the provider alone would read process.env.
      return openai({ apiKey: environment.OPENAI_API_KEY, ...baseURLOption(environment.OPENAI_BASE_URL) });
    }
    case "gemini": {
      const { gemini } = await import("@junction/provider-gemini");
      return gemini({
        apiKey: environment.GEMINI_API_KEY || environment.GOOGLE_API_KEY,
        ...baseURLOption(environment.GEMINI_BASE_URL || environment.GOOGLE_GEMINI_BASE_URL),
      });
    }
    case "bedrock": {
      const { bedrock } = await import("@junction/provider-bedrock");
      return bedrock(bedrockSettings(environment));
    }
    case "openai-compatible": {
      const baseURL = settings.openaiCompatibleBaseURL || environment.OPENAI_COMPATIBLE_BASE_URL;
      if (!baseURL) {
        throw new JunctionError("provider-config-invalid", "No OpenAI-compatible base URL is set.");
      }
      const { chatCompletions } = await import("@junction/provider-chatcompletions");
      // An explicit key, so a vendor key from the environment never goes to this endpoint; and
      // the environment's key only to the environment's URL, never to one set through the page.
      const sameEndpoint =
        environment.OPENAI_COMPATIBLE_BASE_URL !== undefined &&
        sameURL(baseURL, environment.OPENAI_COMPATIBLE_BASE_URL);
      return chatCompletions({
        baseURL,
        apiKey: (sameEndpoint ? environment.OPENAI_COMPATIBLE_API_KEY : undefined) ?? "none",
        name: "openai-compatible",
      });
    }
    case "offline":
      return createOfflineModel({ sandbox: setup.sandbox });
    default:
      throw new JunctionError("provider-config-invalid", `Unknown provider ${JSON.stringify(id)}.`);
  }
}

/**
 * Whether the provider `id` (one of the detected ones) declares that `model` runs programs itself:
 * what code mode `provider` needs. Builds the provider to ask it; nothing is sent.
 */
export async function modelRunsPrograms(id: string, model: string, setup: ProviderSetup): Promise<boolean> {
  return runsPrograms(await createProvider(id, setup), model);
}

/** The tool search's embedder: its vendor's embeddings API, and the name its vectors are kept under. */
export interface PlaygroundEmbedder {
  /** For example `openai:text-embedding-3-small`: the store keeps each model's vectors apart. */
  model: string;
  embed: Embedder;
}

/**
 * The embedder of the first provider with an embeddings API whose key is set (OpenAI, then
 * Gemini, then Bedrock, with the same keys and endpoints as their chat models), for core's tool
 * search; undefined when none is set (Anthropic has no embeddings API; the offline model and an
 * OpenAI-compatible endpoint get none, as the endpoint's embedding model is not known).
 */
export async function createEmbedder(
  environment: NodeJS.ProcessEnv,
): Promise<PlaygroundEmbedder | undefined> {
  const available = new Set(detectProviders(environment, {}).map((provider) => provider.id));
  if (available.has("openai")) {
    const { embedder } = await import("@junction/provider-openai");
    const model = "text-embedding-3-small";
    return {
      model: `openai:${model}`,
      embed: embedder({
        model,
        apiKey: environment.OPENAI_API_KEY,
        ...baseURLOption(environment.OPENAI_BASE_URL),
      }),
    };
  }
  if (available.has("gemini")) {
    const { embedder } = await import("@junction/provider-gemini");
    const model = "gemini-embedding-001";
    return {
      model: `gemini:${model}`,
      embed: embedder({
        model,
        apiKey: environment.GEMINI_API_KEY || environment.GOOGLE_API_KEY,
        ...baseURLOption(environment.GEMINI_BASE_URL || environment.GOOGLE_GEMINI_BASE_URL),
      }),
    };
  }
  if (available.has("bedrock")) {
    const { embedder } = await import("@junction/provider-bedrock");
    const model = "amazon.titan-embed-text-v2:0";
    return { model: `bedrock:${model}`, embed: embedder({ model, ...bedrockSettings(environment) }) };
  }
  return undefined;
}

/** Whether two base URLs name the same endpoint (a trailing slash aside). */
function sameURL(a: string, b: string): boolean {
  try {
    return new URL(a).href.replace(/\/$/, "") === new URL(b).href.replace(/\/$/, "");
  } catch {
    return false;
  }
}

/**
 * Bedrock's settings from the playground's environment, as for the other vendors; the AWS SDK's
 * own chain (profiles, SSO, roles) still applies to whatever is not given here.
 */
function bedrockSettings(environment: NodeJS.ProcessEnv) {
  const region = environment.AWS_REGION || environment.AWS_DEFAULT_REGION;
  return {
    ...(region ? { region } : {}),
    ...(environment.AWS_ACCESS_KEY_ID && environment.AWS_SECRET_ACCESS_KEY
      ? {
          credentials: {
            accessKeyId: environment.AWS_ACCESS_KEY_ID,
            secretAccessKey: environment.AWS_SECRET_ACCESS_KEY,
            ...(environment.AWS_SESSION_TOKEN ? { sessionToken: environment.AWS_SESSION_TOKEN } : {}),
          },
        }
      : {}),
    ...(environment.AWS_BEARER_TOKEN_BEDROCK ? { apiKey: environment.AWS_BEARER_TOKEN_BEDROCK } : {}),
    ...(environment.AWS_PROFILE ? { profile: environment.AWS_PROFILE } : {}),
    ...baseURLOption(environment.BEDROCK_BASE_URL),
  };
}

/** Which AWS credentials the environment has for Bedrock, named for the UI; undefined when none. */
function awsCredentialsSource(environment: NodeJS.ProcessEnv): string | undefined {
  if (environment.AWS_ACCESS_KEY_ID && environment.AWS_SECRET_ACCESS_KEY) return "AWS_ACCESS_KEY_ID";
  if (environment.AWS_BEARER_TOKEN_BEDROCK) return "AWS_BEARER_TOKEN_BEDROCK";
  if (environment.AWS_PROFILE) return "AWS_PROFILE";
  return undefined;
}

/** A `baseURL` setting when the variable is set and not empty; otherwise the provider's default. */
function baseURLOption(value: string | undefined): { baseURL?: string } {
  return value ? { baseURL: value } : {};
}
