import { describe, expect, it } from "vitest";
import { audioDataUrl, imageDataUrl, safeLinkUrl } from "./dom.js";

describe("safe URLs for untrusted content", () => {
  it("makes data URLs for raster images with base64 data only", () => {
    expect(imageDataUrl("image/png", "iVBORw0KGgo=")).toBe("data:image/png;base64,iVBORw0KGgo=");
    expect(imageDataUrl("IMAGE/JPEG", "AAAA")).toBe("data:image/jpeg;base64,AAAA");
    expect(imageDataUrl("image/svg+xml", "PHN2Zz4=")).toBeUndefined();
    expect(imageDataUrl("text/html", "PGI+")).toBeUndefined();
    expect(imageDataUrl("image/png", 'AAAA"><script>')).toBeUndefined();
    expect(imageDataUrl("image/png;charset=x", "AAAA")).toBeUndefined();
  });

  it("makes data URLs for audio types only", () => {
    expect(audioDataUrl("audio/wav", "UklGRg==")).toBe("data:audio/wav;base64,UklGRg==");
    expect(audioDataUrl("video/mp4", "AAAA")).toBeUndefined();
    expect(audioDataUrl("audio/wav", "not base64!")).toBeUndefined();
  });

  it("links only http(s)", () => {
    expect(safeLinkUrl("https://example.com/a?b=1")).toBe("https://example.com/a?b=1");
    expect(safeLinkUrl("http://127.0.0.1:8080/")).toBe("http://127.0.0.1:8080/");
    for (const bad of [
      "javascript:alert(1)",
      "JAVASCRIPT:alert(1)",
      " javascript:alert(1)",
      "data:text/html,<b>",
      "file:///etc/passwd",
      "vbscript:x",
      "relative/path",
      42,
    ]) {
      expect(safeLinkUrl(bad)).toBeUndefined();
    }
  });
});

describe("the UI source", () => {
  it("never hands strings to an HTML parser", async () => {
    const { readdir, readFile } = await import("node:fs/promises");
    const directory = new URL("./", import.meta.url);
    const files = (await readdir(directory)).filter(
      (file) => file.endsWith(".ts") && !file.endsWith(".test.ts"),
    );
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const source = await readFile(new URL(file, directory), "utf8");
      expect(source, file).not.toMatch(
        /innerHTML|outerHTML|insertAdjacentHTML|document\.write|DOMParser|createContextualFragment|eval\(/,
      );
    }
  });
});
