import type { ToolDefinition } from "@junction/types";
import { describe, expect, it } from "vitest";
import { namesAFile, TOOL_INDEX_SETTINGS, ToolIndex } from "./tool-search-index.js";
import { MIN_RELEVANCE } from "./tool-search-tool.js";

const definition = (name: string, description: string, properties: Record<string, unknown> = {}) =>
  ({ name, description, inputSchema: { type: "object", properties } }) satisfies ToolDefinition;

/** A handful of tools about different things, and filler so that IDF means something. */
const TOOLS: ToolDefinition[] = [
  definition("get_forecast", "Gets the weather forecast for a city for the next days.", { city: {} }),
  definition("send_email", "Sends an email message to a recipient.", { to: {}, subject: {}, body: {} }),
  definition("create_issue", "Creates an issue in a GitHub repository.", { repo: {}, title: {} }),
  definition("list_files", "Lists the files in a directory.", { path: {} }),
  definition("write_file", "Writes text to a file at a path.", { path: {}, content: {} }),
  definition("get_stock_price", "Gets the current price of a stock ticker.", { ticker: {} }),
  definition("front_page", "Gets the front page of a news site.", { site: {} }),
  ...Array.from({ length: 20 }, (_, index) => definition(`misc_${index}`, `Miscellaneous helper ${index}.`)),
];

describe("ToolIndex relevance (the 'nothing fits' measure)", () => {
  it("a long request full of names and numbers still fits its tool: relevance counts the request's two most telling words", () => {
    const index = new ToolIndex(TOOLS);
    const [best] = index.search(
      "My sister Alice flies from Lyon to Paris on 14 March with 2 suitcases, flight AF1234 at 07:45; what will the weather forecast be there",
      5,
    );
    expect(best?.definition.name).toBe("get_forecast");
    // Normalised by every word of the request, as before, it was about 0.1: "nothing fits".
    expect(best!.relevance).toBeGreaterThanOrEqual(MIN_RELEVANCE);
  });

  it("a short request no tool can do stays under the threshold, also when one of its words meets a tool", () => {
    const index = new ToolIndex(TOOLS);
    for (const request of ["adjust the thermostat to 21 degrees", "lock the front door"]) {
      const relevance = index.search(request, 5)[0]?.relevance ?? 0;
      expect(relevance, request).toBeLessThan(MIN_RELEVANCE);
    }
  });

  it("a request in a tool's own words fits it well above the threshold", () => {
    const index = new ToolIndex(TOOLS);
    const [best] = index.search("weather forecast", 5);
    expect(best?.definition.name).toBe("get_forecast");
    expect(best!.relevance).toBeGreaterThan(0.5);
  });

  it("with relevanceTerms: Infinity every word counts, and the long request looks weak again", () => {
    const index = new ToolIndex(TOOLS, { ...TOOL_INDEX_SETTINGS, relevanceTerms: Number.POSITIVE_INFINITY });
    const [best] = index.search(
      "My sister Alice flies from Lyon to Paris on 14 March with 2 suitcases, flight AF1234 at 07:45; what will the weather forecast be there",
      5,
    );
    expect(best?.definition.name).toBe("get_forecast");
    expect(best!.relevance).toBeLessThan(MIN_RELEVANCE);
  });
});

describe("ToolIndex ranking", () => {
  it("a tool's server counts: of two tools in the same words, the one whose server the request names ranks first", () => {
    const index = new ToolIndex([
      {
        definition: definition("shop_search", "Searches for items by keywords."),
        source: { name: "shop", description: "Products of an online shop." },
      },
      {
        definition: definition("arxiv_search", "Searches for items by keywords."),
        source: { name: "arxiv", description: "Scientific papers and preprints from arXiv." },
      },
      ...TOOLS,
    ]);
    expect(index.search("search scientific papers", 2).map((hit) => hit.definition.name)).toEqual([
      "arxiv_search",
      "shop_search",
    ]);
  });

  it('split: "round-robin" puts each part\'s best tool in the first places', () => {
    const index = new ToolIndex(TOOLS, { ...TOOL_INDEX_SETTINGS, split: "round-robin" });
    const found = index.search(
      "Get the current stock price of ACME, then write it to a file at /tmp/acme.txt",
      2,
    );
    expect(found.map((hit) => hit.definition.name).sort()).toEqual(["get_stock_price", "write_file"]);
  });
});

describe("ToolIndex feedback pass (measured, off by default)", () => {
  it("widens the request with its best tools' words and ranks again, the relevance staying the first pass's", () => {
    const tools = [
      definition("get_forecast", "Gets the weather forecast: rain, wind and temperature for a city."),
      definition("get_temperature_map", "Draws a temperature and wind map of a region."),
      definition("send_email", "Sends an email message to a recipient."),
      ...Array.from({ length: 10 }, (_, index) =>
        definition(`misc_${index}`, `Miscellaneous helper ${index}.`),
      ),
    ];
    const plain = new ToolIndex(tools);
    const widened = new ToolIndex(tools, {
      ...TOOL_INDEX_SETTINGS,
      feedback: { documents: 1, terms: 5, weight: 0.3 },
    });
    expect(TOOL_INDEX_SETTINGS.feedback).toBe(false);
    // "forecast" alone finds one tool; the feedback pass brings the one sharing its other words.
    expect(plain.search("forecast", 5).map((hit) => hit.definition.name)).toEqual(["get_forecast"]);
    const hits = widened.search("forecast", 5);
    expect(hits.map((hit) => hit.definition.name)).toEqual(["get_forecast", "get_temperature_map"]);
    expect(hits[0]!.relevance).toBe(plain.search("forecast", 1)[0]!.relevance);
    // Found only through the widened words: no word of the request, no relevance.
    expect(hits[1]!.relevance).toBe(0);
  });
});

describe("ToolIndex: a request that names a file is about a file", () => {
  // Two tools alike but for "file": a request saying "save" meets both at once.
  const tools = [
    definition("save_note", "Saves a text note.", { note: {} }),
    definition("save_to_file", "Saves content to a file.", { path: {}, content: {} }),
    ...TOOLS.slice(5),
  ];

  it("ranks a file tool first for a request naming a path or a file name, not for one naming none", () => {
    const index = new ToolIndex(tools);
    expect(index.search("save this text to /root/docs/todo.md", 2)[0]?.definition.name).toBe("save_to_file");
    expect(index.search("save this text into todo.txt", 2)[0]?.definition.name).toBe("save_to_file");
    expect(index.search("save this text", 2)[0]?.definition.name).toBe("save_note");
    // Off (fileHint 0), the path is only letters: the note tool wins on "text".
    const off = new ToolIndex(tools, { ...TOOL_INDEX_SETTINGS, fileHint: 0 });
    expect(off.search("save this text to /root/docs/todo.md", 2)[0]?.definition.name).toBe("save_note");
  });

  it("tells a file's path or name from a web address, an abbreviation, a route and a repository", () => {
    for (const named of [
      "save it in /root/markdown/bitcoin.md",
      "what's inside package.json",
      "open a.txt, b.txt and c.txt together",
      "list ~/data/raw",
      "copy src/lib/parts",
      "C:\\reports\\q3",
      "read (notes/todo.md).",
    ])
      expect(namesAFile(named), named).toBe(true);
    for (const none of [
      "see example.com",
      "go to www.baidu.com.",
      "analyse https://www.apple.com/iphone-16/page.html",
      "e.g. this one",
      "TCP/IP and/or UDP",
      "redirect users to `/login`",
      "the octocat/hello repo",
      "version 2.5 of it",
    ])
      expect(namesAFile(none), none).toBe(false);
  });
});
