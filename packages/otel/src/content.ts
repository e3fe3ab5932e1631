/** How content (model output, tool arguments and results) is captured on spans, when it is. */
export interface ContentCaptureOptions {
  /**
   * Characters one captured attribute may hold (its JSON text); past it the text is cut and
   * ends with `…[truncated]`.
   * @default 4096
   */
  maxChars?: number;
  /**
   * Object keys whose values are replaced with `[REDACTED]` wherever they appear in captured
   * content, matched case-insensitively as a substring.
   * @default ["authorization", "api_key", "apikey", "api-key", "token", "secret", "password", "cookie", "credential"]
   */
  redactKeys?: string[];
}

/** The default for {@link ContentCaptureOptions.maxChars}. */
export const DEFAULT_MAX_CONTENT_CHARS = 4096;

const DEFAULT_REDACT_KEYS = [
  "authorization",
  "api_key",
  "apikey",
  "api-key",
  "token",
  "secret",
  "password",
  "cookie",
  "credential",
];

const TRUNCATED = "…[truncated]";

/** Turns values into the bounded, redacted JSON text that goes on a span; `undefined` when capture is off. */
export class ContentCapture {
  private readonly maxChars: number;
  private readonly redactKeys: string[];

  constructor(options: ContentCaptureOptions) {
    this.maxChars = Math.max(TRUNCATED.length + 1, options.maxChars ?? DEFAULT_MAX_CONTENT_CHARS);
    this.redactKeys = (options.redactKeys ?? DEFAULT_REDACT_KEYS).map((key) => key.toLowerCase());
  }

  /** `value` as JSON text (a string stays as it is), redacted and cut to the limit. */
  text(value: unknown): string {
    let text: string;
    try {
      text = typeof value === "string" ? value : (JSON.stringify(this.redact(value, 0)) ?? "null");
    } catch {
      // A value JSON cannot hold (a cycle, a BigInt) is named, not captured.
      text = `[unserializable ${typeof value}]`;
    }
    return text.length > this.maxChars ? text.slice(0, this.maxChars - TRUNCATED.length) + TRUNCATED : text;
  }

  private redact(value: unknown, depth: number): unknown {
    if (depth > 32 || value === null || typeof value !== "object") return value;
    if (Array.isArray(value)) return value.map((item) => this.redact(item, depth + 1));
    const result: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const lower = key.toLowerCase();
      result[key] = this.redactKeys.some((secret) => lower.includes(secret))
        ? "[REDACTED]"
        : this.redact(item, depth + 1);
    }
    return result;
  }
}

/** The capture for the option as given: `true` is the defaults, `false`/omitted is none. */
export function contentCaptureOf(
  option: boolean | ContentCaptureOptions | undefined,
): ContentCapture | undefined {
  if (!option) return undefined;
  return new ContentCapture(option === true ? {} : option);
}
