import type { ToolAnnotations } from "@junction/types";

/** What an approval policy is asked about: one call the model wants to make. */
export interface ApprovalRequest {
  /** The call's id, as the model gave it. */
  id: string;
  /** The real tool name (with its MCP prefix, if any). */
  name: string;
  /** The validated arguments. */
  input: unknown;
  annotations?: ToolAnnotations;
  /** The MCP source's name, absent for local tools. */
  source?: string;
}

/**
 * A policy's answer: `true`/`"approve"` runs the call, `false`/`"deny"` (or `{ deny: reason }`)
 * refuses it with an error result the model sees, `"ask"` surfaces a `tool-approval-request`
 * event for a UI to answer.
 */
export type ApprovalDecision = boolean | "approve" | "deny" | "ask" | { deny: string };

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
 * The annotation-based policy: tools annotated `readOnlyHint` run, tools explicitly marked
 * `destructiveHint: false` run, and destructive or unannotated tools ask. `ask`, when given,
 * answers those questions itself (a CLI prompt, say); otherwise each one becomes a
 * `tool-approval-request` event.
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
  return (request) => {
    const annotations = request.annotations;
    if (annotations?.readOnlyHint === true) return "approve";
    if (annotations?.destructiveHint === false) return "approve";
    return options.ask ? options.ask(request) : "ask";
  };
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

/** The three outcomes a decision can have, with the reason for a denial. */
export type NormalizedDecision = { kind: "approve" } | { kind: "deny"; reason?: string } | { kind: "ask" };

/** Reads any policy answer; an answer of the wrong shape denies, so nothing runs by mistake. */
export function normalizeDecision(decision: unknown): NormalizedDecision {
  if (decision === true || decision === "approve") return { kind: "approve" };
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

function toRegExp(pattern: NamePattern): RegExp {
  if (pattern instanceof RegExp) return pattern;
  const escaped = pattern.split("*").map((piece) => piece.replace(/[.+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${escaped.join(".*")}$`);
}
