import { audioDataUrl, h, imageDataUrl, jsonBlock, safeLink } from "./dom.js";

/** Renders one MCP content block as a person expects: text, image, audio player, resource, link. */
export function renderBlock(block: unknown): HTMLElement {
  if (typeof block !== "object" || block === null) return unsupported(block);
  const part = block as Record<string, any>;
  switch (part.type) {
    case "text":
      return h("pre", { class: "text-block", testid: "content-text" }, String(part.text ?? ""));
    case "image": {
      const url = imageDataUrl(part.mimeType, part.data);
      if (!url) return notice(`An image of type ${String(part.mimeType)} that cannot be shown safely.`);
      const image = h("img", {
        class: "content-image",
        testid: "content-image",
        title: String(part.mimeType),
      });
      image.src = url;
      image.alt = `image (${String(part.mimeType)})`;
      return h("figure", {}, image);
    }
    case "audio": {
      const url = audioDataUrl(part.mimeType, part.data);
      if (!url) return notice(`Audio of type ${String(part.mimeType)} that cannot be played safely.`);
      const audio = h("audio", { testid: "content-audio" });
      audio.controls = true;
      audio.src = url;
      return audio;
    }
    case "resource":
      return renderResourceContents(part.resource, "embedded resource");
    case "resource_link":
      return h(
        "div",
        { class: "resource-link", testid: "content-resource-link" },
        h("span", { class: "muted" }, "link: "),
        safeLink(part.uri, String(part.name ?? part.uri)),
        h(
          "span",
          { class: "muted" },
          ` ${String(part.uri)}${part.mimeType ? ` · ${String(part.mimeType)}` : ""}`,
        ),
        part.description ? h("div", { class: "muted" }, String(part.description)) : null,
      );
    default:
      return unsupported(block);
  }
}

/** Renders the contents of a read resource (text or base64 blob). */
export function renderResourceContents(contents: unknown, label = "resource"): HTMLElement {
  if (typeof contents !== "object" || contents === null) return unsupported(contents);
  const resource = contents as Record<string, any>;
  const header = h(
    "div",
    { class: "resource-header" },
    `${label}: `,
    safeLink(resource.uri, String(resource.uri)),
    resource.mimeType ? h("span", { class: "muted" }, ` · ${String(resource.mimeType)}`) : null,
  );
  let body: HTMLElement;
  if (typeof resource.text === "string") body = h("pre", { class: "text-block" }, resource.text);
  else if (typeof resource.blob === "string") {
    const image = imageDataUrl(resource.mimeType, resource.blob);
    const audio = audioDataUrl(resource.mimeType, resource.blob);
    if (image) {
      const element = h("img", { class: "content-image" });
      element.src = image;
      element.alt = String(resource.uri);
      body = element;
    } else if (audio) {
      const element = h("audio");
      element.controls = true;
      element.src = audio;
      body = element;
    } else {
      body = h(
        "div",
        { class: "muted" },
        `binary contents, ${Math.round((resource.blob.length * 3) / 4)} bytes`,
      );
    }
  } else body = h("div", { class: "muted" }, "no contents");
  return h("div", { class: "resource", testid: "content-resource" }, header, body);
}

/**
 * Renders a full tool result: its blocks, structured content as JSON, an error mark, and the
 * playground's note when the result was too large or too deep to show whole (always as text).
 */
export function renderToolResult(result: unknown, durationMs?: number, truncated?: unknown): HTMLElement {
  const box = h("div", { class: "tool-result", testid: "tool-result" });
  if (typeof truncated === "string" && truncated !== "")
    box.append(h("div", { class: "warning", testid: "truncation-note" }, truncated));
  if (typeof result !== "object" || result === null) {
    box.append(unsupported(result));
    return box;
  }
  const value = result as { content?: unknown; isError?: unknown; structuredContent?: unknown };
  if (value.isError === true) {
    box.classList.add("is-error");
    box.append(h("div", { class: "error-mark", testid: "tool-error" }, "⚠ The tool reported an error"));
  }
  if (durationMs !== undefined) box.append(h("div", { class: "muted" }, `${durationMs} ms`));
  const blocks = Array.isArray(value.content) ? value.content : [];
  for (const block of blocks) box.append(renderBlock(block));
  if (value.structuredContent !== undefined) {
    box.append(
      h("div", { class: "label" }, "structured content"),
      jsonBlock(value.structuredContent, "structured-content"),
    );
  }
  if (blocks.length === 0 && value.structuredContent === undefined)
    box.append(h("div", { class: "muted" }, "(empty result)"));
  return box;
}

function notice(text: string): HTMLElement {
  return h("div", { class: "warning" }, text);
}

function unsupported(value: unknown): HTMLElement {
  return h(
    "div",
    { class: "warning" },
    "Content this page does not know how to show, as JSON:",
    jsonBlock(value),
  );
}
