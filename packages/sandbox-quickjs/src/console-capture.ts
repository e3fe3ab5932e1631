import { truncateUTF8, utf8ByteLength } from "./bridge-json.js";

/** The console levels the guest has. */
export type ConsoleLevel = "log" | "info" | "warn" | "error";

/** What the guest logged, kept up to a number of UTF-8 bytes. */
export interface ConsoleCapture {
  /** Adds one call's text (already formatted by the guest) as a line. */
  append(level: ConsoleLevel, text: string): void;
  /** Everything kept, with a note at the end when something was cut. */
  text(): string;
}

/**
 * A console that keeps the first `maxBytes` bytes of output. `warn` and `error` lines start with
 * `[warn] ` and `[error] `; each call is one line. Past the cap, the rest is dropped and the text
 * ends with a note saying so.
 */
export function createConsoleCapture(maxBytes: number): ConsoleCapture {
  let kept = "";
  let keptBytes = 0;
  let cut = false;
  return {
    append(level, text) {
      if (cut) return;
      const prefix = level === "warn" || level === "error" ? `[${level}] ` : "";
      const line = `${prefix}${text}\n`;
      const lineBytes = utf8ByteLength(line);
      if (keptBytes + lineBytes <= maxBytes) {
        kept += line;
        keptBytes += lineBytes;
        return;
      }
      kept += truncateUTF8(line, maxBytes - keptBytes);
      keptBytes = maxBytes;
      cut = true;
    },
    text() {
      if (!cut) return kept;
      return `${kept}${kept.endsWith("\n") ? "" : "\n"}…cut: console output past ${maxBytes} bytes was dropped\n`;
    },
  };
}
