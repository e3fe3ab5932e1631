import { JunctionError } from "@junction/types";

const variableName = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Reads `--allow-env` values (`NAME,NAME`, the flag possibly repeated) into variable names.
 * Exact names only: a pattern such as `*_TOKEN` would let a pasted config reach secrets no one named.
 */
export function parseAllowedVariables(values: readonly string[]): string[] {
  const names = values
    .flatMap((value) => value.split(","))
    .map((name) => name.trim())
    .filter((name) => name !== "");
  for (const name of names) {
    if (!variableName.test(name)) {
      throw new JunctionError(
        "invalid-argument",
        `--allow-env takes variable names separated by commas (letters, digits and _); ${JSON.stringify(name)} is not one.`,
      );
    }
  }
  return [...new Set(names)];
}

/**
 * The variables a server config from the page may expand: only those the person named, and only
 * when set. Nothing else of the playground's environment (its provider keys above all) is reachable.
 */
export function allowedEnvironment(
  environment: NodeJS.ProcessEnv,
  allowed: readonly string[],
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const name of allowed) {
    const value = environment[name];
    if (value !== undefined) result[name] = value;
  }
  return result;
}

/** The error words for a variable that is missing or not allowed: the same, so neither is revealed. */
export function unresolvedVariable(name: string): string {
  return `${name} is not set or not allowed (the playground expands only the variables named with --allow-env)`;
}
