import { JunctionError, type ModelRequest, type Warning } from "@junction/types";
import { isRecord } from "./parse-tool-arguments.js";

/**
 * The vendor options a request carries for one provider: `request.providerOptions[provider]`,
 * or `{}` when there are none.
 *
 * @throws `JunctionError` with code `invalid-argument` when the entry is not an object.
 *
 * @example
 * ```ts
 * const { thinking, ...rest } = providerOptionsFor(request, "anthropic");
 * ```
 */
export function providerOptionsFor(request: ModelRequest, provider: string): Record<string, unknown> {
  const options: unknown = request.providerOptions?.[provider];
  if (options === undefined) return {};
  if (!isRecord(options)) {
    throw new JunctionError(
      "invalid-argument",
      `providerOptions.${provider} must be an object of request fields, got ${options === null ? "null" : Array.isArray(options) ? "an array" : typeof options}.`,
    );
  }
  return options;
}

/**
 * Splits vendor options into the fields to add to the request body as they are, and a
 * `provider-option-ignored` warning for each field the provider sets itself (`reserved`), which
 * options may not replace.
 *
 * @example
 * ```ts
 * const { fields, warnings } = passThroughOptions(providerOptionsFor(request, "anthropic"), {
 *   provider: "anthropic",
 *   reserved: ["model", "messages", "stream"],
 * });
 * Object.assign(body, fields);
 * ```
 */
export function passThroughOptions(
  options: Record<string, unknown>,
  settings: {
    /** The provider's name, the key in `providerOptions`, for the warning. */
    provider: string;
    /** Body fields the provider builds from the request itself. */
    reserved: readonly string[];
  },
): { fields: Record<string, unknown>; warnings: Warning[] } {
  const fields: Record<string, unknown> = {};
  const warnings: Warning[] = [];
  for (const [key, value] of Object.entries(options)) {
    if (settings.reserved.includes(key)) {
      warnings.push({
        code: "provider-option-ignored",
        message: `providerOptions.${settings.provider}.${key} was ignored: Junction sets "${key}" from the request itself.`,
      });
    } else {
      fields[key] = value;
    }
  }
  return { fields, warnings };
}
