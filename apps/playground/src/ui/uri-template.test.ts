import { describe, expect, it } from "vitest";
import { expandTemplate, templateVariables } from "./uri-template.js";

describe("URI templates", () => {
  it("finds the variables of levels 1 to 4, each once", () => {
    expect(templateVariables("demo://resource/dynamic/text/{resourceId}")).toEqual(["resourceId"]);
    expect(templateVariables("file:///{+path}{?mode,limit}{#section}{name}")).toEqual([
      "path",
      "mode",
      "limit",
      "section",
      "name",
    ]);
    expect(templateVariables("x://{a}/{a}/{list*}/{short:3}")).toEqual(["a", "list", "short"]);
    expect(templateVariables("no variables")).toEqual([]);
  });

  it("expands simple values percent-encoded, reserved ones with slashes kept", () => {
    expect(expandTemplate("demo://resource/dynamic/text/{resourceId}", { resourceId: "12" })).toBe(
      "demo://resource/dynamic/text/12",
    );
    expect(expandTemplate("x://{name}", { name: "a b/c?" })).toBe("x://a%20b%2Fc%3F");
    expect(expandTemplate("file:///{+path}", { path: "home/me/a b.txt" })).toBe("file:///home/me/a%20b.txt");
  });

  it("expands query, path, label and parameter forms, leaving empty values out", () => {
    expect(expandTemplate("x://s{?q,limit}", { q: "mcp apps", limit: "" })).toBe("x://s?q=mcp%20apps");
    expect(expandTemplate("x://s{?q}{&page}", { q: "a", page: "2" })).toBe("x://s?q=a&page=2");
    expect(expandTemplate("x://{/a,b}", { a: "1", b: "2" })).toBe("x:///1/2");
    expect(expandTemplate("x://h{.ext}", { ext: "json" })).toBe("x://h.json");
    expect(expandTemplate("x://h{;v}", { v: "3" })).toBe("x://h;v=3");
    expect(expandTemplate("x://h{#f}", { f: "a/b" })).toBe("x://h#a/b");
    expect(expandTemplate("x://{a}", {})).toBe("x://");
  });
});
