import type { ToolDefinition } from "@junction/types";
import { describe, expect, it } from "vitest";
import { ToolIndex } from "./tool-search-index.js";
import { searchTerms } from "./tool-search-terms.js";
import { RELATED_WORD_WEIGHT, weightedQueryTerms } from "./tool-search-thesaurus.js";

const definition = (name: string, description: string): ToolDefinition => ({
  name,
  description,
  inputSchema: { type: "object", properties: { path: { type: "string" } } },
});

const tools = [
  definition("write_file", "Create a new file or overwrite an existing one with new content."),
  definition("read_text_file", "Read the complete contents of a text file."),
  definition("create_directory", "Create a new directory."),
  definition("move_file", "Move or rename files and directories."),
  definition("create_pull_request", "Create a new pull request in a GitHub repository."),
  definition("get_pull_request", "Get details of a specific pull request."),
  definition("browser_navigate", "Navigate to a URL."),
  definition("browser_navigate_back", "Go back to the previous page."),
];

const top = (query: string, limit = 1) =>
  new ToolIndex(tools).search(query, limit).map((found) => found.definition.name);

describe("the tool search's thesaurus", () => {
  it("weighs a query's own words 1, an abbreviation's words 1, and their synonyms less", () => {
    const weights = weightedQueryTerms(searchTerms("save the PR"));
    expect(weights.get("save")).toBe(1);
    expect(weights.get("pull")).toBe(1);
    expect(weights.get("request")).toBe(1);
    expect(weights.get("write")).toBe(RELATED_WORD_WEIGHT);
    expect(weights.get("store")).toBe(RELATED_WORD_WEIGHT);
    expect(RELATED_WORD_WEIGHT).toBeLessThan(1);
    // A word the query says keeps its own weight though a synonym of another word names it.
    expect(weightedQueryTerms(searchTerms("save and write")).get("write")).toBe(1);
  });

  it("finds the tool a person names in other words: save → write, folder → directory, relocate → move, PR → pull request", () => {
    expect(top("save it into notes.md")).toEqual(["write_file"]);
    expect(top("make a new folder called reports")).toEqual(["create_directory"]);
    expect(top("relocate old.csv into the archive")).toEqual(["move_file"]);
    expect(top("show me PR 17")).toEqual(["get_pull_request"]);
  });

  it("ranks a tool that has the query's own word above one that has only its synonym", () => {
    // "write" names write_file; "create" (a synonym of "make") names three others.
    expect(top("write a file")).toEqual(["write_file"]);
    expect(top("go back to the previous page", 2)).toEqual(["browser_navigate_back", "browser_navigate"]);
  });
});
