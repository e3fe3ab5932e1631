import type { ModelProvider } from "@junction/types";
import type { RecordedRequest, WireReply } from "@junction/wire-fake";

/** One tool call the scripted model makes. `name` is the real (neutral) tool name. */
export interface ScriptedToolCall {
  /** The call id the vendor sends, where its wire carries one. */
  id: string;
  name: string;
  /** The arguments, as the model means them. */
  input: Record<string, unknown>;
  /** The argument JSON text in the pieces a streaming vendor sends; joined, it is `JSON.stringify(input)`. */
  argumentPieces: string[];
}

/** Token counts in neutral terms (`outputTokens` includes `reasoningTokens`); each vendor renders them its own way. */
export interface ScriptedUsage {
  inputTokens: number;
  outputTokens: number;
  reasoningTokens?: number;
  /** A vendor-specific way of reporting these counts (see {@link VendorAdapter.usageVariants}); absent: the vendor's own. */
  shape?: string;
}

/** Why the scripted turn ends, in neutral terms; each vendor renders its own stop reason. */
export type ScriptedFinish = "stop" | "tool-calls" | "length" | "refusal";

/** One assistant turn the fake streams: reasoning, then text, then tool calls, then the end. */
export interface ScriptedTurn {
  responseId: string;
  reasoning?: string[];
  text?: string[];
  toolCalls?: ScriptedToolCall[];
  finish: ScriptedFinish;
  usage: ScriptedUsage;
}

/** What the fake answers one request with, in neutral terms. */
export type ScriptedReply =
  /** A streamed turn; `tools` are the real names of the tools the request declares, in order. */
  | { kind: "turn"; turn: ScriptedTurn; tools?: readonly string[] }
  /** An HTTP error, as the vendor sends it (status, its error body with `message`, its headers). */
  | { kind: "http-error"; status: number; message: string }
  /** A 200 stream that carries `text` and then an error of the "overloaded / server error" kind. */
  | { kind: "stream-error"; text: string; message: string };

/** Facts the suite needs to script a reply for a given request. */
export interface ScriptContext {
  /** The name the request gave the vendor for a real tool (vendors answer with that name). */
  vendorToolName(name: string): string;
}

/** A running fake of the vendor's API that answers in its exact wire format. */
export interface VendorFake {
  /** What `createProvider` takes as `baseURL`. */
  url: string;
  /** Every request received, in order, bodies parsed. */
  requests: RecordedRequest[];
  /** Queues replies, taken one per request in order. */
  enqueue(...replies: ScriptedReply[]): void;
  close(): Promise<void>;
}

/** A fake that streams the start of a turn up to its first text delta and then holds the stream open. */
export interface HeldStream {
  url: string;
  requests: RecordedRequest[];
  /** Resolves once the client has closed the HTTP stream. */
  closed: Promise<void>;
  close(): Promise<void>;
}

/** An image found in a recorded request. */
export interface FoundImage {
  mimeType: string;
  /** Base64. */
  data: string;
}

/** Names of the contract's cases, for {@link VendorAdapter.knownGaps}. */
export type ContractCase =
  | "text"
  | "reasoning"
  | "tool-call"
  | "parallel-tool-calls"
  | "tool-result-images"
  | "usage"
  | "usage-variants"
  | "finish-stop"
  | "finish-tool-calls"
  | "finish-length"
  | "http-400"
  | "http-429-retried"
  | "http-429-no-retries"
  | "http-5xx"
  | "stream-error"
  | "abort"
  | "aborted-before-request"
  | "unreachable"
  | "missing-api-key"
  | "structured-plain"
  | "structured-after-tools"
  | "structured-streamed"
  | "structured-repaired"
  | "structured-invalid"
  | "structured-checked-locally"
  | "structured-refusal"
  | "program-run"
  | "program-call-denied"
  | "program-call-invalid"
  | "program-exfiltration-guard"
  | "program-call-spans"
  | "program-on-tool-call"
  | "program-from-conversation"
  | "program-direct-call"
  | "program-min-tools"
  | "program-model-without";

/** One tool call in a scripted program turn; `id` is neutral ("sales"), the adapter makes the vendor's id of it. */
export interface ScriptedProgramCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
  /** `program`: the vendor-run program made the call; `model`: the model called the tool directly. */
  by: "program" | "model";
}

/**
 * One assistant turn of a vendor that runs programs itself, in the order the vendors send it: the
 * program's end (its output), the text, the program written in this turn, then the calls. There is
 * one program per scenario ({@link ProgramAdapter.program}); a turn that does not write it continues
 * the program an earlier turn wrote. A turn with calls ends for tool use, one without ends the turn.
 */
export interface ScriptedProgramTurn {
  responseId: string;
  /** The program ended before this turn's text (the vendor's program output item or block). */
  programEnds?: boolean;
  text?: string;
  /** The model writes the program in this turn (its source streams here). */
  writesProgram?: boolean;
  calls?: ScriptedProgramCall[];
}

/** What a request sent back about programs, read from its body in neutral terms, in order. */
export type ProgramWireEntry =
  | { kind: "user"; text: string }
  | { kind: "text"; text: string }
  /** The program as the vendor wrote it, sent back as it came. */
  | { kind: "program"; id: string; source: string }
  /** A tool call of an earlier turn; `program` is the id of the program that made it. */
  | { kind: "call"; id: string; name: string; input: unknown; program?: string }
  /**
   * The result of a call: `program` where the wire names the calling program on the result
   * ({@link ProgramAdapter.wire}), `error` where it flags errors; `text` the content as a string
   * (JSON for structured content).
   */
  | { kind: "result"; callId: string; program?: string; error?: true; text: string }
  /** The program's end (its output), sent back as it came. */
  | { kind: "program-end"; id: string };

/**
 * What the programmatic-calls contract needs from a vendor that runs the model's programs itself
 * (Anthropic's code execution with `allowed_callers`, OpenAI's Programmatic Tool Calling). Vendors
 * without programs leave {@link VendorAdapter.programs} out and the suite skips those cases.
 */
export interface ProgramAdapter {
  /** A model that runs programs (its capabilities say `programmaticToolCalling`). */
  model: string;
  /** A model of the same provider that does not. */
  modelWithout: string;
  /** The vendor's tool that runs programs, as `ToolCallPart.program.runtime` names it. */
  runtime: string;
  /** The scenario's one program: its id on the wire and its source (in the vendor's language). */
  program: { id: string; source: string };
  /** The vendor's id for the neutral call id `id` (`toolu_<id>`, `call_<id>`). */
  callId(id: string): string;
  /** Renders one program turn in the vendor's exact wire format (its recorded shapes). */
  render(turn: ScriptedProgramTurn): WireReply;
  /** The path the SDK's base URL needs after the fake's origin, for example `/v1`. */
  basePath?: string;
  /**
   * The tools a recorded request offered, in order, each with who may call it as the wire says
   * (`code`: only a program, `both`, `undefined`: only the model), and the runtime tool it declared
   * (`undefined` when it declared none).
   */
  offered(body: unknown): { tools: [name: string, callers: "code" | "both" | undefined][]; runtime?: string };
  /** What a recorded request sent back, in neutral terms ({@link ProgramWireEntry}). */
  sentBack(body: unknown): ProgramWireEntry[];
  /** How the vendor's wire ties results to programs. */
  wire: {
    /** A result of a program's call names the program (OpenAI's `caller` on `function_call_output`). */
    resultNamesProgram: boolean;
    /** An error result is flagged as one (Anthropic's `is_error`). */
    resultFlagsErrors: boolean;
    /**
     * Where programs run in a container the requests must name while a program's call is answered
     * (Anthropic): the container's id, and how to read it from a recorded request.
     */
    container?: { id: string; read(body: unknown): string | undefined };
  };
}

/** Settings the suite creates a provider with. */
export interface ProviderOptions {
  /** The fake's URL (from {@link VendorFake.url} or {@link HeldStream.url}). */
  baseURL: string;
  /** How often the vendor's SDK retries; retries must be quick (the adapter sets short backoff). */
  maxRetries: number;
}

/**
 * What the contract suite needs to know about one vendor: how to build its provider through the
 * public factory, how to fake its API, and how to read neutral facts out of a request it sent.
 */
export interface VendorAdapter {
  /** The provider's `name` (its key in `providerOptions` and in errors). */
  name: string;
  /** The vendor as the provider's messages name it (`The Anthropic request was aborted.`). */
  displayName: string;
  /** The model id every scenario asks for. */
  model: string;
  /** Creates the provider through its package's public factory, with a fake key. */
  createProvider(options: ProviderOptions): ModelProvider;
  /**
   * Creates the provider with no key anywhere (the suite blanks these environment variables),
   * still pointed at the fake. Absent for vendors whose credentials come from elsewhere (AWS).
   */
  missingApiKey?: {
    environmentVariables: string[];
    createProvider(options: ProviderOptions): ModelProvider;
    /** What the error says: where the key goes (the option and the variables the provider reads). */
    message: string;
  };
  /** Starts the vendor's fake. */
  startFake(): Promise<VendorFake>;
  /** Starts a fake whose only answer streams `turn` up to its first text delta, then holds the stream. */
  startHeldStream(turn: ScriptedTurn): Promise<HeldStream>;
  /** How the vendor's wire differs in ways the contract allows. */
  wire: {
    /** `wire`: call ids come from the vendor and must reach the events as sent; `generated`: the provider makes them. */
    toolCallIds: "wire" | "generated";
    /** `pieces`: one `tool-call-delta` per piece sent; `whole`: the vendor sends whole arguments, one delta. */
    argumentDeltas: "pieces" | "whole";
    /**
     * How the vendor reports reasoning tokens: on every turn (0 when there was no reasoning),
     * only when there was reasoning, or never.
     */
    reasoningTokens: "always" | "when-reasoning" | "never";
    /** The vendor's rule for tool names; names that break it are mapped and mapped back. */
    toolNamePattern: RegExp;
  };
  /** Reads the tool names a recorded request declared, in order. */
  toolNames(body: unknown): string[];
  /**
   * Reads the images a recorded request carried for tool results: `native` inside the vendor's
   * own tool-result structure, `elsewhere` anywhere else (for example a following user message).
   */
  toolResultImages(body: unknown): { native: FoundImage[]; elsewhere: FoundImage[] };
  /**
   * Other ways servers speaking this wire report usage (compatible servers), each a `shape` the
   * adapter renders; the suite checks the usage invariants hold for each.
   */
  usageVariants?: { label: string; shape: string }[];
  /** Other models to run the tool-result image case with (the vendor treats them differently). */
  imageModels?: string[];
  /**
   * Cases the provider is known to fail today, each with the gap, run as `it.fails` so the suite stays
   * green and turns red once the gap is closed (then remove the entry). A key `case@variant` names one
   * run of a case that runs per model (`tool-result-images@<model>`) or per usage shape (`usage-variants@<shape>`).
   */
  knownGaps?: Partial<Record<ContractCase | `${ContractCase}@${string}`, string>>;
  /** How the vendor runs programs the model writes; absent for a vendor that does not. */
  programs?: ProgramAdapter;
  /** Where the vendor's wire carries a requested JSON answer (`ModelRequest.responseFormat`). */
  structuredOutput: {
    /** The response format a recorded request carried, as the wire has it; `undefined` when it has none. */
    format(body: unknown): unknown;
    /** The format the vendor documents for `schema` (named "answer"), as the request must carry it. */
    expected(schema: Record<string, unknown>): unknown;
    /** Where the vendor documents that wire form. */
    documentation: string;
    /** Other models to run the structured-output cases with (their mode differs from `model`'s). */
    models?: string[];
  };
}
