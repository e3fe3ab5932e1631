/**
 * The message of anything thrown: an `Error`'s `message`, else the value as a string. The one way
 * Junction turns a caught value into text for its own messages; `(error as Error).message` gives
 * `undefined` for a thrown string, and this does not.
 *
 * @example
 * ```ts
 * try {
 *   JSON.parse(text);
 * } catch (error) {
 *   throw new JunctionError("invalid-argument", `The file is not JSON: ${errorMessage(error)}`);
 * }
 * ```
 */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
