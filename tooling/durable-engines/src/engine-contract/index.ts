// The engine contract suite: one set of cases every durable engine's package runs (as the
// provider contract suite is for model providers). Never imported by shipped code.

export { reachStatus } from "@junction/durable-engines/engine-contract/contract-in-process";
export {
  expectFinishedElsewhere,
  notesItem,
  notesWorkersOf,
} from "@junction/durable-engines/engine-contract/contract-workers";
export {
  defineEngineContract,
  type EngineContractPart,
} from "@junction/durable-engines/engine-contract/define-engine-contract";
export type {
  AgentRunsUnderTest,
  ApprovalsClient,
  EngineAdapter,
  EngineForWorkers,
  EngineTraits,
  LaunchedEngine,
  NotesWorkers,
  PortRuns,
  ReadmeSnippetOf,
  StepsWorkers,
} from "@junction/durable-engines/engine-contract/engine-adapter";
export { expectJournaled, notesSetUp } from "@junction/durable-engines/engine-contract/workers-set-up";
