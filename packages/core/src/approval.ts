import type { ToolAnnotations } from "@junction/types";

/** What an approval policy is asked about: one call the model wants to make. */
export interface ApprovalRequest {
  /** The call's id, unique in the conversation (the model's own unless it reused one). */
  id: string;
  /** The real tool name (with its MCP prefix, if any). */
  name: string;
  /** The validated arguments. */
  input: unknown;
  annotations?: ToolAnnotations;
  /** The MCP source's label (`MCP source "github" (prefix "gh")`), absent for local tools. */
  source?: string;
  /**
   * Present when the exfiltration guard covers this call: the tool is open-world, and the
   * conversation already holds results of these closed-world tools (private data the call's
   * arguments could carry out). The guard then asks a person even if the policy approves,
   * unless the policy answers `"user-approved"`.
   */
  privateDataFrom?: string[];
}

/**
 * A policy's answer: `true`/`"approve"` runs the call, `false`/`"deny"` (or `{ deny: reason }`)
 * refuses it with an error result the model sees, `"ask"` surfaces a `tool-approval-request`
 * event for a UI to answer. `"user-approved"` says a person was asked (by the policy itself, a
 * CLI prompt say) and approved: it runs even where the exfiltration guard would ask, so the
 * person is not asked twice. Return it only after a person's answer.
 */
export type ApprovalDecision = boolean | "approve" | "user-approved" | "deny" | "ask" | { deny: string };

/** A function deciding each call. */
export type ApprovalFunction = (request: ApprovalRequest) => ApprovalDecision | Promise<ApprovalDecision>;

/** A tool-name pattern: `*` matches any run of characters (`github_*`), or a regular expression. */
export type NamePattern = string | RegExp;

/**
 * Allow and deny lists by name pattern. Deny wins over allow; a name on neither list goes to
 * `otherwise`, which defaults to `"ask"`.
 */
export interface NamePatternPolicy {
  allow?: NamePattern[];
  deny?: NamePattern[];
  /** @default "ask" */
  otherwise?: ApprovalFunction | "approve" | "deny" | "ask";
}

/**
 * Decides per call whether a tool runs. Omitted, every tool runs. A function, allow/deny name
 * patterns, or a built-in such as `annotationPolicy()`.
 */
export type ApprovalPolicy = ApprovalFunction | NamePatternPolicy;

/**
 * The annotation-based policy. A tool runs without a question only if it claims to be
 * read-only (`readOnlyHint: true`) and closed-world (`openWorldHint: false`; MCP's default for
 * a missing hint is open-world) and does not claim to be destructive. Everything else asks:
 * open-world tools (they can send what they are given anywhere), writes, destructive,
 * unannotated and contradictory tools (`readOnlyHint: true, destructiveHint: true`).
 * Annotations are a server's claims, so this is as far as they are trusted: a lying read-only
 * closed-world tool can read, but nothing that reaches outside runs unasked. `ask`, when given,
 * answers those questions itself (a CLI prompt, say; a yes counts as `"user-approved"`);
 * otherwise each one becomes a `tool-approval-request` event.
 *
 * @example
 * ```ts
 * const agent = new Agent({ provider, model, mcps: [fs], approval: annotationPolicy() });
 * for await (const event of agent.send("Tidy my notes")) {
 *   if (event.type === "tool-approval-request") event.approve();
 * }
 * ```
 */
export function annotationPolicy(
  options: { ask?: (request: ApprovalRequest) => boolean | Promise<boolean> } = {},
): ApprovalFunction {
  const ask = options.ask;
  return (request) => {
    if (claimsReadOnlyClosedWorld(request.annotations)) return "approve";
    if (!ask) return "ask";
    return Promise.resolve(ask(request)).then((yes) => (yes === true ? "user-approved" : false));
  };
}

/** Read-only, closed-world and not destructive, by the tool's own claims (strictly `true`/`false`). */
function claimsReadOnlyClosedWorld(annotations: ToolAnnotations | undefined): boolean {
  return (
    annotations?.readOnlyHint === true &&
    annotations.openWorldHint === false &&
    annotations.destructiveHint !== true
  );
}

/** Builds a name-pattern policy as a function, to combine with others. */
export function namePatternPolicy(policy: NamePatternPolicy): ApprovalFunction {
  const allow = (policy.allow ?? []).map(toRegExp);
  const deny = (policy.deny ?? []).map(toRegExp);
  const otherwise = policy.otherwise ?? "ask";
  return (request) => {
    if (deny.some((pattern) => pattern.test(request.name))) {
      return { deny: `The tool "${request.name}" is on the deny list.` };
    }
    if (allow.some((pattern) => pattern.test(request.name))) return "approve";
    return typeof otherwise === "function" ? otherwise(request) : otherwise;
  };
}

/** The function form of any policy. */
export function toApprovalFunction(policy: ApprovalPolicy | undefined): ApprovalFunction | undefined {
  if (policy === undefined) return undefined;
  return typeof policy === "function" ? policy : namePatternPolicy(policy);
}

/** The three outcomes a decision can have, with the reason for a denial and whether a person approved. */
export type NormalizedDecision =
  | { kind: "approve"; byUser?: true }
  | { kind: "deny"; reason?: string }
  | { kind: "ask" };

/** Reads any policy answer; an answer of the wrong shape denies, so nothing runs by mistake. */
export function normalizeDecision(decision: unknown): NormalizedDecision {
  if (decision === true || decision === "approve") return { kind: "approve" };
  if (decision === "user-approved") return { kind: "approve", byUser: true };
  if (decision === "ask") return { kind: "ask" };
  if (
    typeof decision === "object" &&
    decision !== null &&
    typeof (decision as { deny?: unknown }).deny === "string"
  ) {
    return { kind: "deny", reason: (decision as { deny: string }).deny };
  }
  if (decision === false || decision === "deny") return { kind: "deny" };
  return { kind: "deny", reason: `The approval policy gave an unrecognised answer (${String(decision)}).` };
}

/** A name pattern as a regular expression matching whole names. */
export function toRegExp(pattern: NamePattern): RegExp {
  // A global or sticky expression remembers where it last matched: test() would alternate.
  if (pattern instanceof RegExp) return new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, ""));
  const escaped = pattern.split("*").map((piece) => piece.replace(/[.+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${escaped.join(".*")}$`);
}
