// A conversation's code mode (off, sandbox, provider): how it is read from the store, which mode a
// stopped run resumes in, and what is said when `provider` is asked of a model that cannot run
// programs, and the Agent's `codeMode` for a mode. Pure: values in, values out.
import type { AgentConfig, RunState } from "@junction/core";
import { JunctionError, type ModelProvider, type Sandbox } from "@junction/types";
import { CODE_MODE_SETTINGS } from "../shared/api-bodies.js";
import type { CodeModeSetting } from "../shared/api-types.js";

/** A conversation's code mode: the shared contract. */
export type { CodeModeSetting } from "../shared/api-types.js";

/** Whether `value` is one of the code modes. */
export function isCodeModeSetting(value: unknown): value is CodeModeSetting {
  return (CODE_MODE_SETTINGS as readonly unknown[]).includes(value);
}

/**
 * A stored conversation's code mode: its `code_mode_setting` when that is one of the modes, else
 * what the older boolean column (`code_mode`, from before programs could run on the vendor) said:
 * on is `sandbox`, the only place programs ran then.
 */
export function storedCodeMode(setting: unknown, legacyEnabled: unknown): CodeModeSetting {
  if (isCodeModeSetting(setting)) return setting;
  return Number(legacyEnabled) === 1 ? "sandbox" : "off";
}

/**
 * The code mode a stopped run resumes in: the one it ran in (kept beside its state), so a call a
 * program made finishes in the runtime that program ran in, whatever the conversation's mode is
 * now. A state stored before the mode was kept beside it ran in the sandbox if a program's call
 * waits (the only runtime then), else in the conversation's mode.
 */
export function resumedCodeMode(conversation: {
  codeMode: CodeModeSetting;
  runState: Pick<RunState, "pending"> | null;
  runStateCodeMode: CodeModeSetting | null;
}): CodeModeSetting {
  if (conversation.runStateCodeMode) return conversation.runStateCodeMode;
  return conversation.runState?.pending.some((call) => call.parent) ? "sandbox" : conversation.codeMode;
}

/** Whether `provider` declares that `model` runs programs itself (`programmaticToolCalling`). */
export function runsPrograms(provider: ModelProvider, model: string): boolean {
  return (provider.capabilitiesFor?.(model) ?? provider.capabilities).programmaticToolCalling === true;
}

/**
 * Why code mode `provider` is refused for `provider`'s `model`, and what to choose instead;
 * `choices` names the other modes as the asker gives them (`"sandbox" or "off"`, `--code-mode sandbox`).
 */
export function providerModeRefusal(refused: { provider: string; model: string; choices: string }): string {
  return (
    `Code mode "provider" runs programs on the vendor's side, which only a model that runs programs itself can do ` +
    `(Anthropic's Claude Sonnet or Opus 4.5 and later, OpenAI's GPT-5.6); ${refused.provider}'s ${JSON.stringify(refused.model)} does not. ` +
    `Choose ${refused.choices}, or a model that runs programs.`
  );
}

/**
 * The Agent's `codeMode` for a conversation's mode: none when `off`, the QuickJS sandbox
 * (`sandbox`, made on first use), or the vendor's runtime (`provider`).
 */
export function codeModeConfig(mode: CodeModeSetting, sandbox: () => Sandbox): Pick<AgentConfig, "codeMode"> {
  switch (mode) {
    case "off":
      return {};
    case "sandbox":
      return { codeMode: { sandbox: sandbox() } };
    case "provider":
      return { codeMode: { sandbox: "provider" } };
    default: {
      const unknown: never = mode;
      throw new JunctionError("invalid-argument", `Unknown code mode ${JSON.stringify(unknown)}.`);
    }
  }
}
