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
  /**
   * Set for a call a program made (code mode): the program's own call (its id and tool), the
   * call's sequence number in the program, and the program's source, so an approval card can
   * show what the call is part of.
   */
  parent?: PendingCallParent;
}

/** The program a nested call belongs to. */
export interface PendingCallParent {
  /** The program call's id in the conversation. */
  id: string;
  /** The program tool's name (`run_program`). */
  name: string;
  /** 1 for the program's first call, 2 for its second, … */
  sequence: number;
  /** The program's source, as the model wrote it. */
  program: string;
}
