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
   * Set for a call a program made (code mode), so an approval card can show what the call is part
   * of: the program (its id and the tool or runtime that ran it), the call's sequence number, and
   * the program's source. A sandbox's program (`runtime` absent) is a `run_program` call of the
   * step; a vendor's program (`runtime: "provider"`, `codeMode: { sandbox: "provider" }`) is the
   * vendor's code execution, and the call keeps the vendor's id.
   */
  parent?: PendingCallParent;
}

/**
 * The program a call belongs to.
 *
 * - In a sandbox (`runtime` absent, or `"sandbox"`): `id` is the `run_program` call's id, `name`
 *   is `run_program`, `sequence` counts the program's calls (the call's own id is
 *   `<id>.<sequence>`), `program` is the code the model passed to `run_program`.
 * - On the provider (`runtime: "provider"`): `id` is the program's id in the turn (Anthropic's
 *   code execution `server_tool_use` id, OpenAI's `program` item `call_id`; the call's
 *   `ToolCallPart.program.id`), `name` is the vendor's tool that ran it (`code_execution_20250825`,
 *   `programmatic_tool_calling`), `sequence` counts that program's calls in the conversation (one
 *   that goes on over several turns numbers its calls on from those of the earlier turns), and
 *   `program` is the code as the vendor reported it. A call whose program's code the conversation
 *   does not hold has no `parent`.
 */
export interface PendingCallParent {
  /** The program's id: the `run_program` call's id, or the vendor's id of the program. */
  id: string;
  /** What ran the program: `run_program`, or the vendor's code execution tool. */
  name: string;
  /** 1 for the program's first call, 2 for its second, … (on the provider: over every turn it made calls in). */
  sequence: number;
  /** The program's source, as the model wrote it. */
  program: string;
  /**
   * Where the program ran: absent (or `"sandbox"`) for core's sandbox, `"provider"` for the model
   * vendor's runtime.
   */
  runtime?: "sandbox" | "provider";
}
