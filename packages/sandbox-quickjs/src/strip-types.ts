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
 * Whether `source` may hold TypeScript that also reads as JavaScript with another meaning: a `<`
 * that a later `>` may close as type arguments, the `>` followed by `(`, a template, a comment or a
 * line break (`f<T>(x)`, `a<b>\n`; JavaScript reads them as comparisons). Such a source has its
 * types stripped before it runs. Every other TypeScript syntax (annotations, `as`, `!`,
 * `interface`, generics on declarations, …) is not JavaScript at all, so a source holding it fails
 * to compile as written and is stripped then: the check can be cheap. It is conservative: a
 * comparison that looks like type arguments (even inside a string) only means stripping first.
 */
export function mayHoldTypeArguments(source: string): boolean {
  const open = source.indexOf("<");
  return open >= 0 && CLOSES_TYPE_ARGUMENTS.test(source.slice(open + 1));
}

/** A `>` (not of `=>`) followed by `(`, a template, a `/` (a comment, or a regular expression) or a line break. */
const CLOSES_TYPE_ARGUMENTS = /(?<!=)>(?=\s*[(`/]|[^\S\r\n\u2028\u2029]*[\r\n\u2028\u2029])/;

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
