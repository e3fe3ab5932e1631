import { errorMessage, JunctionError } from "@junction/types";

type Transform = typeof import("sucrase")["transform"];

/** The program as JavaScript, or sucrase's reason it could not read it. */
export type StrippedSource = { kind: "stripped"; code: string } | { kind: "unreadable"; message: string };

let transformLoad: Promise<Transform> | undefined;

/**
 * Loads sucrase, once and only when first needed (it takes tens of milliseconds, done in parallel
 * with loading the engine).
 */
export function loadTypeStripper(): Promise<Transform> {
  transformLoad ??= import("sucrase").then(
    (sucrase) => sucrase.transform,
    (error: unknown) => {
      // Not kept: the next run tries again.
      transformLoad = undefined;
      throw new JunctionError(
        "tool-execution-failed",
        `sucrase could not be loaded: ${errorMessage(error)}`,
        {
          cause: error,
        },
      );
    },
  );
  return transformLoad;
}

/**
 * TypeScript's types taken out of a program, everything else left as written: sucrase's
 * `typescript` transform with its JavaScript rewrites off (`disableESTransforms`: QuickJS runs
 * modern syntax itself), imports kept so an `import` is QuickJS's clear syntax error rather than
 * silently dropped. Line numbers stay the same. A source sucrase cannot parse is answered with
 * its message (with line and column); the caller may still try it as plain JavaScript.
 */
export async function stripTypes(source: string): Promise<StrippedSource> {
  const transform = await loadTypeStripper();
  try {
    const { code } = transform(source, {
      transforms: ["typescript"],
      disableESTransforms: true,
      keepUnusedImports: true,
    });
    return { kind: "stripped", code };
  } catch (error) {
    return { kind: "unreadable", message: errorMessage(error) };
  }
}
