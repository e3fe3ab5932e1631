export { type Collected, collect, coreUsage, neutralEvents } from "./collect-events.ts";
export { contractCase } from "./contract-case.ts";
export { defineProviderContract } from "./define-provider-contract.ts";
export { expectedEvents, expectedUsage } from "./expected-events.ts";
export {
  type RenderSSEReply,
  scriptContext,
  startHeldSSEStream,
  startSSEVendorFake,
} from "./sse-vendor-fake.ts";
export type {
  ContractCase,
  FoundImage,
  HeldStream,
  ProviderOptions,
  ScriptContext,
  ScriptedFinish,
  ScriptedReply,
  ScriptedToolCall,
  ScriptedTurn,
  ScriptedUsage,
  VendorAdapter,
  VendorFake,
} from "./vendor-adapter.ts";
