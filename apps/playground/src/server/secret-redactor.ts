/** What a redacted value is replaced with, as the page shows it. */
export const REDACTED = "••••••";

/** Values shorter than this are not redacted: hiding "1" or "on" everywhere would garble every message. */
const minimumLength = 4;

/**
 * Replaces known secret values (every `${VAR}` a server config expanded) in text, in their raw,
 * JSON-escaped and URL-encoded forms, so they never reach an error message, a log or an API answer.
 */
export class SecretRedactor {
  readonly #owners = new Map<string, Set<string>>();
  #forms: string[] = [];

  /** Sets the secrets of one owner (a server), replacing its previous ones. */
  set(owner: string, values: Iterable<string>): void {
    const kept = new Set([...values].filter((value) => value.length >= minimumLength));
    if (kept.size === 0) this.#owners.delete(owner);
    else this.#owners.set(owner, kept);
    this.#rebuild();
  }

  delete(owner: string): void {
    if (this.#owners.delete(owner)) this.#rebuild();
  }

  /** `text` with every known secret replaced by {@link REDACTED}. */
  redact(text: string): string {
    let result = text;
    for (const form of this.#forms) {
      if (result.includes(form)) result = result.replaceAll(form, REDACTED);
    }
    return result;
  }

  /** A JSON-compatible value with every known secret redacted from its strings and keys. */
  redactValue<T>(value: T): T {
    if (this.#forms.length === 0 || value === undefined) return value;
    return JSON.parse(this.redact(JSON.stringify(value))) as T;
  }

  #rebuild(): void {
    const forms = new Set<string>();
    for (const values of this.#owners.values()) {
      for (const value of values) {
        forms.add(value);
        forms.add(JSON.stringify(value).slice(1, -1));
        forms.add(encodeURIComponent(value));
        forms.add(encodeURI(value));
      }
    }
    // Longest first, so a secret containing another is replaced whole.
    this.#forms = [...forms]
      .filter((form) => form.length >= minimumLength)
      .sort((a, b) => b.length - a.length);
  }
}
