/**
 * Reading JSON that is still streaming in: the object as far as it has arrived. Pure functions,
 * no I/O; the model's text is untrusted and anything that does not read is `undefined`.
 */

/** The JSON text inside a model's answer: trimmed, without a Markdown code fence around it. */
export function answerJSONText(text: string): string {
  const trimmed = text.trim();
  const fenced = /^```(?:json)?\s*([\s\S]*?)\s*(?:```)?$/i.exec(trimmed);
  return fenced ? fenced[1]!.trim() : trimmed;
}

/**
 * The value of an incomplete JSON object or array, as far as it has arrived: an open string
 * value is closed where it stops, a key without its value and an unfinished number or literal
 * are left out. `undefined` when the text does not start as a JSON object or array.
 *
 * @example parsePartialJSON('{"city":"Par') // { city: "Par" }
 */
export function parsePartialJSON(text: string): unknown {
  const body = answerJSONText(text);
  if (!body.startsWith("{") && !body.startsWith("[")) return undefined;
  const complete = tryParse(body);
  if (complete.ok) return complete.value;
  const scan = scanJSON(body);
  if (scan.openValueString) {
    // Drop a half escape (`\` or `\u12`) before closing the string.
    const closed = `${body.replace(/\\(u[0-9a-fA-F]{0,3})?$/, "")}"${scan.closers}`;
    const attempt = tryParse(closed);
    if (attempt.ok) return attempt.value;
  }
  if (scan.lastSafe === undefined) return undefined;
  // Scanned again up to there for its closers: keeping them at every safe point would take time
  // in the square of the nesting, which the model chooses.
  const safe = body.slice(0, scan.lastSafe);
  const attempt = tryParse(safe + scanJSON(safe).closers);
  return attempt.ok ? attempt.value : undefined;
}

interface Scan {
  /** The text ends inside a string that is a value (not a key). */
  openValueString: boolean;
  /** What closes every open container at the end of the text. */
  closers: string;
  /** The end of the last point where a value had just ended (or a container opened). */
  lastSafe?: number;
}

function scanJSON(text: string): Scan {
  const stack: { closer: "}" | "]"; expectingKey: boolean }[] = [];
  const closers = () =>
    stack
      .map((entry) => entry.closer)
      .reverse()
      .join("");
  let lastSafe: number | undefined;
  const safe = (end: number) => {
    lastSafe = end;
  };
  let inString = false;
  let escaped = false;
  let stringIsKey = false;
  let literalStart = -1;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (inString) {
      if (escaped) escaped = false;
      else if (char === "\\") escaped = true;
      else if (char === '"') {
        inString = false;
        if (!stringIsKey) safe(index + 1);
      }
      continue;
    }
    const structural = '{}[],:"'.includes(char) || /\s/.test(char);
    if (!structural) {
      if (literalStart === -1) literalStart = index;
      continue;
    }
    if (literalStart !== -1) {
      literalStart = -1;
      safe(index);
    }
    const top = stack.at(-1);
    switch (char) {
      case '"':
        inString = true;
        stringIsKey = top?.closer === "}" && top.expectingKey;
        break;
      case "{":
        stack.push({ closer: "}", expectingKey: true });
        safe(index + 1);
        break;
      case "[":
        stack.push({ closer: "]", expectingKey: false });
        safe(index + 1);
        break;
      case "}":
      case "]":
        stack.pop();
        safe(index + 1);
        break;
      case ",":
        if (top?.closer === "}") top.expectingKey = true;
        break;
      case ":":
        if (top) top.expectingKey = false;
        break;
    }
  }
  return {
    openValueString: inString && !stringIsKey,
    closers: closers(),
    ...(lastSafe !== undefined ? { lastSafe } : {}),
  };
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    // Not (yet) JSON: the caller tries a shorter prefix or gives up.
    return { ok: false };
  }
}
