/** One expression of a URI template: `{name}`, `{+path}`, `{?a,b}`… (RFC 6570). */
interface Expression {
  operator: "" | "+" | "#" | "." | "/" | ";" | "?" | "&";
  names: string[];
}

const operators = new Set(["+", "#", ".", "/", ";", "?", "&"]);

function parse(template: string): (string | Expression)[] {
  const parts: (string | Expression)[] = [];
  const pattern = /\{([^{}]*)\}/g;
  let last = 0;
  for (let match = pattern.exec(template); match; match = pattern.exec(template)) {
    if (match.index > last) parts.push(template.slice(last, match.index));
    let body = match[1]!;
    const first = body[0] ?? "";
    const operator = (operators.has(first) ? first : "") as Expression["operator"];
    if (operator) body = body.slice(1);
    const names = body
      .split(",")
      // Level 4 modifiers (`:3`, `*`) are dropped: the form asks for whole values.
      .map((name) => name.trim().replace(/(:\d+|\*)$/, ""))
      .filter((name) => name.length > 0);
    parts.push({ operator, names });
    last = match.index + match[0].length;
  }
  if (last < template.length) parts.push(template.slice(last));
  return parts;
}

/** The variable names of a URI template, in order, each once. */
export function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const part of parse(template)) {
    if (typeof part === "string") continue;
    for (const name of part.names) if (!names.includes(name)) names.push(name);
  }
  return names;
}

const encodeReserved = (value: string) => encodeURI(value).replace(/%25([0-9A-Fa-f]{2})/g, "%$1");

/**
 * Expands a URI template with the given values (RFC 6570 levels 1–3: simple, reserved `+`,
 * fragment `#`, label `.`, path `/`, parameters `;`, query `?` and `&`). An empty or missing
 * value is left out, as the RFC says for undefined variables.
 */
export function expandTemplate(template: string, values: Record<string, string>): string {
  return parse(template)
    .map((part) => {
      if (typeof part === "string") return part;
      const { operator } = part;
      const encode = operator === "+" || operator === "#" ? encodeReserved : encodeURIComponent;
      const defined = part.names.filter((name) => (values[name] ?? "") !== "");
      if (defined.length === 0) return "";
      const named = operator === ";" || operator === "?" || operator === "&";
      const items = defined.map((name) => {
        const value = encode(values[name]!);
        return named ? `${name}=${value}` : value;
      });
      const first = operator === "+" || operator === "" ? "" : operator;
      const separator =
        operator === "" || operator === "+" || operator === "#"
          ? ","
          : operator === "?" || operator === "&"
            ? "&"
            : operator;
      return first + items.join(separator);
    })
    .join("");
}
