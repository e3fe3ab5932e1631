import type {
  FunctionCallingConfigMode,
  FunctionDeclaration,
  Tool as GeminiTool,
  ToolConfig,
} from "@google/genai";
import { prepareToolNames } from "@junction/provider-utils";
import {
  createToolNameMapping,
  type Message,
  type ToolChoice,
  type ToolDefinition,
  type ToolNameMapping,
  type ToolNameRule,
  type Warning,
} from "@junction/types";
import { cleanGeminiJSONSchema } from "./clean-gemini-json-schema.js";

/**
 * Gemini's documented rule for function names: letters, digits, underscores, dots, colons and
 * dashes, at most 64 characters (the Gemini API's limit; Vertex AI allows 128), and the name
 * must start with a letter or an underscore — {@link prepareGeminiTools} enforces that last part.
 */
export const GEMINI_TOOL_NAME_RULE: ToolNameRule = { allowed: /[a-zA-Z0-9_.:-]/, maxLength: 64 };

/** Tool declarations and settings ready for a Gemini request. */
export interface PreparedGeminiTools {
  /** `undefined` when the request has no tools. */
  tools?: GeminiTool[];
  toolConfig?: ToolConfig;
  /** Maps real tool names to the names sent to Gemini and back. */
  toolNames: ToolNameMapping;
  warnings: Warning[];
}

/**
 * Declares tools for Gemini: names made to fit {@link GEMINI_TOOL_NAME_RULE} (including the
 * names of earlier calls in `messages`, so past turns map the same way; a second tool with a
 * taken name is left out with a warning), schemas passed as
 * `parametersJsonSchema` after {@link cleanGeminiJSONSchema}, and the tool choice as a
 * `functionCallingConfig`. Pure; never mutates the definitions.
 */
export function prepareGeminiTools(options: {
  tools?: ToolDefinition[];
  toolChoice?: ToolChoice;
  messages?: Message[];
}): PreparedGeminiTools {
  const { tools, toolNames, warnings } = prepareToolNames({
    ...options,
    rule: createGeminiToolNameMapping,
    provider: "Gemini",
  });

  const declarations: FunctionDeclaration[] = tools.map((tool) => {
    const cleaned = cleanGeminiJSONSchema(tool.inputSchema ?? { type: "object" });
    if (cleaned.removedKeywords.length > 0) {
      warnings.push({
        code: "tool-schema-keywords-removed",
        message: `Tool "${tool.name}": Gemini does not accept the JSON Schema keywords ${cleaned.removedKeywords.join(", ")}; they were removed from what the model sees (the tool still validates its input).`,
      });
    }
    if (cleaned.unresolvedRefs.length > 0) {
      warnings.push({
        code: "tool-schema-ref-unresolved",
        message: `Tool "${tool.name}": the references ${cleaned.unresolvedRefs.join(", ")} are recursive or not local, so Gemini sees a permissive schema in their place (the tool still validates its input).`,
      });
    }
    const declaration: FunctionDeclaration = {
      name: toolNames.toVendor(tool.name),
      description: tool.description,
      parametersJsonSchema: cleaned.schema,
    };
    return declaration;
  });

  const toolConfig = prepareToolConfig(options.toolChoice, { tools, toolNames, warnings });
  return {
    tools: declarations.length > 0 ? [{ functionDeclarations: declarations }] : undefined,
    toolConfig,
    toolNames,
    warnings,
  };
}

// The SDK's `FunctionCallingConfigMode` enum values, written out so that this module needs only
// the SDK's types: the SDK itself is loaded on the first request.
const functionCallingMode = {
  AUTO: "AUTO" as FunctionCallingConfigMode.AUTO,
  ANY: "ANY" as FunctionCallingConfigMode.ANY,
  NONE: "NONE" as FunctionCallingConfigMode.NONE,
} as const;

function prepareToolConfig(
  toolChoice: ToolChoice | undefined,
  {
    tools,
    toolNames,
    warnings,
  }: { tools: ToolDefinition[]; toolNames: ToolNameMapping; warnings: Warning[] },
): ToolConfig | undefined {
  if (toolChoice === undefined || tools.length === 0) return undefined;
  if (toolChoice === "auto") return { functionCallingConfig: { mode: functionCallingMode.AUTO } };
  if (toolChoice === "none") return { functionCallingConfig: { mode: functionCallingMode.NONE } };
  if (toolChoice === "required") return { functionCallingConfig: { mode: functionCallingMode.ANY } };
  if (!tools.some((tool) => tool.name === toolChoice.name)) {
    warnings.push({
      code: "tool-choice-unknown-tool",
      message: `toolChoice names "${toolChoice.name}", which is not among the request's tools; the model chooses freely instead.`,
    });
    return { functionCallingConfig: { mode: functionCallingMode.AUTO } };
  }
  return {
    functionCallingConfig: {
      mode: functionCallingMode.ANY,
      allowedFunctionNames: [toolNames.toVendor(toolChoice.name)],
    },
  };
}

/**
 * {@link createToolNameMapping} with Gemini's extra rule that a name starts with a letter or
 * an underscore: names that do not get a leading `_`, kept distinct from every other name.
 */
export function createGeminiToolNameMapping(names: Iterable<string>): ToolNameMapping {
  const unique = [...new Set(names)];
  const base = createToolNameMapping(unique, GEMINI_TOOL_NAME_RULE);
  const toVendor = new Map<string, string>();
  const fromVendor = new Map<string, string>();
  const taken = new Set(unique.map((name) => base.toVendor(name)));
  for (const name of unique) {
    let vendorName = base.toVendor(name);
    if (!/^[a-zA-Z_]/.test(vendorName)) {
      const stem = `_${vendorName}`.slice(0, GEMINI_TOOL_NAME_RULE.maxLength);
      vendorName = stem;
      for (let n = 2; taken.has(vendorName); n++) {
        const suffix = `_${n}`;
        vendorName = stem.slice(0, GEMINI_TOOL_NAME_RULE.maxLength - suffix.length) + suffix;
      }
      taken.add(vendorName);
    }
    toVendor.set(name, vendorName);
    fromVendor.set(vendorName, name);
  }
  return {
    toVendor: (name) => toVendor.get(name) ?? base.toVendor(name),
    fromVendor: (vendorName) => fromVendor.get(vendorName) ?? base.fromVendor(vendorName),
  };
}
