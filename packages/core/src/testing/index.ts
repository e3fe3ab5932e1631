/** What the model reads of a program's outcome: for tests that quote it instead of restating its wording. */
export { programResult } from "../code-mode/program-result.js";
export {
  type ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedPause,
  type ScriptedResponse,
  type ScriptedToolCall,
  type ScriptedTurn,
  scriptedModel,
} from "./scripted-model.js";
