/**
 * DOM helpers. Everything a server or a model sends reaches the page through these, as text
 * nodes and checked attributes: never as HTML (CVE-2025-58444 was an inspector rendering a
 * server's data as markup).
 */

type Child = Node | string | number | false | null | undefined;
type Props = {
  class?: string;
  testid?: string;
  title?: string;
  type?: string;
  value?: string;
  placeholder?: string;
  disabled?: boolean;
  checked?: boolean;
  rows?: number;
  name?: string;
  for?: string;
  id?: string;
  step?: string;
  required?: boolean;
  onclick?: (event: MouseEvent) => void;
  oninput?: (event: Event) => void;
  onchange?: (event: Event) => void;
  onsubmit?: (event: SubmitEvent) => void;
  onkeydown?: (event: KeyboardEvent) => void;
};

/** Creates an element; strings become text nodes. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined) continue;
    if (key === "class") element.className = String(value);
    else if (key === "testid") element.dataset.testid = String(value);
    else if (key.startsWith("on")) element.addEventListener(key.slice(2), value as EventListener);
    else if (key === "disabled" || key === "checked" || key === "required") {
      (element as unknown as Record<string, boolean>)[key] = Boolean(value);
    } else if (key === "value") (element as HTMLInputElement).value = String(value);
    else element.setAttribute(key === "for" ? "for" : key, String(value));
  }
  append(element, ...children);
  return element;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === "object" ? child : document.createTextNode(String(child)));
  }
}

export function clear(element: Element): void {
  element.replaceChildren();
}

const imageTypes = new Set(["image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp", "image/avif"]);
const base64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A `data:` URL for an image, only for raster image types and valid base64; otherwise undefined. */
export function imageDataUrl(mimeType: unknown, data: unknown): string | undefined {
  if (typeof mimeType !== "string" || typeof data !== "string") return undefined;
  const type = mimeType.toLowerCase().trim();
  if (!imageTypes.has(type) || !base64.test(data.replace(/\s/g, ""))) return undefined;
  return `data:${type};base64,${data.replace(/\s/g, "")}`;
}

/** A `data:` URL for audio, only for `audio/*` types and valid base64; otherwise undefined. */
export function audioDataUrl(mimeType: unknown, data: unknown): string | undefined {
  if (typeof mimeType !== "string" || typeof data !== "string") return undefined;
  const type = mimeType.toLowerCase().trim();
  if (!/^audio\/[a-z0-9.+-]+$/.test(type) || !base64.test(data.replace(/\s/g, ""))) return undefined;
  return `data:${type};base64,${data.replace(/\s/g, "")}`;
}

/** The URL as a string when it is http(s), otherwise undefined: no `javascript:`, no `data:`. */
export function safeLinkUrl(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** A link that opens in a new tab, or plain text when the URL is not http(s). */
export function safeLink(href: unknown, text: string): HTMLElement {
  const url = safeLinkUrl(href);
  if (!url) return h("span", { class: "uri", title: "not an http(s) link, shown as text" }, text);
  const link = h("a", {}, text);
  link.href = url;
  link.target = "_blank";
  link.rel = "noopener noreferrer";
  return link;
}

/** JSON, formatted, as text. */
export function jsonBlock(value: unknown, testid?: string): HTMLElement {
  let text: string;
  try {
    text = JSON.stringify(value, null, 2) ?? "undefined";
  } catch {
    text = String(value);
  }
  return h("pre", { class: "json", testid }, text);
}
