export {
  type ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedPause,
  type ScriptedResponse,
  type ScriptedToolCall,
  type ScriptedTurn,
  scriptedModel,
} from "./scripted-model.js";
