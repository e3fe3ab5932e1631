// Compile-time only (run by `pnpm type-check`): `capabilitiesFor` is optional, returns whole
// capabilities, and a reader falls back to `capabilities` in one expression.
import type { ModelProvider, ProviderCapabilities } from "./model-provider.js";

const all: ProviderCapabilities = {
  toolResultImages: true,
  toolResultAudio: false,
  toolResultDocuments: true,
  userImages: true,
  userAudio: false,
  parallelToolCalls: true,
  reasoning: true,
};

// A provider without per-model answers still is a ModelProvider.
export const perProvider: ModelProvider = { name: "a", capabilities: all, stream: async function* () {} };

export const perModel: ModelProvider = {
  name: "b",
  capabilities: all,
  capabilitiesFor: (model) => (model.startsWith("old-") ? { ...all, toolResultImages: false } : all),
  stream: async function* () {},
};

export const partial: ModelProvider = {
  name: "c",
  capabilities: all,
  // @ts-expect-error: a per-model answer is whole capabilities, not a part of them.
  capabilitiesFor: () => ({ toolResultImages: false }),
  stream: async function* () {},
};

export const read: ProviderCapabilities = perModel.capabilitiesFor?.("old-1") ?? perModel.capabilities;
