/** A call waiting for a person's decision. */
export interface PendingToolCall {
  /** The call's id in the conversation: the key of its decision in `resume()`. */
  id: string;
  /** The real tool name (with its MCP prefix, if any). */
  name: string;
  /** The MCP source's label, absent for local tools. */
  source?: string;
  /** The validated arguments. */
  input: unknown;
  /** Why a person is asked when the policy alone would not have asked (the exfiltration guard). */
  reason?: string;
  /** The step of the run the call belongs to. */
  step: number;
  /**
   * The SHA-256 digest of the tool as the model saw it in that step (its `ToolSnapshot`'s
   * `digest`); absent where the run keeps no tool snapshots.
   */
  toolDigest?: string;
  /** The SHA-256 digest (hex) of `canonicalJSON(input)`: what a decision given for this item is bound to. */
  argumentsDigest?: string;
}
