import { describe, expect, it } from "vitest";
import { cleanGeminiJSONSchema } from "./clean-gemini-json-schema.js";

describe("cleanGeminiJSONSchema", () => {
  it("inlines local $refs, keeps sibling keywords and never mutates the input", () => {
    const schema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: {
        home: { $ref: "#/$defs/Address", description: "Where they live" },
        work: { $ref: "#/definitions/Address" },
      },
      required: ["home"],
      $defs: { Address: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
      definitions: { Address: { type: "object", properties: { street: { type: "string" } } } },
    };
    const before = structuredClone(schema);
    const result = cleanGeminiJSONSchema(schema);
    expect(result).toEqual({
      schema: {
        type: "object",
        properties: {
          home: {
            type: "object",
            properties: { city: { type: "string" } },
            required: ["city"],
            description: "Where they live",
          },
          // $defs wins over definitions for the same name
          work: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        },
        required: ["home"],
      },
      removedKeywords: [],
      unresolvedRefs: [],
    });
    expect(schema).toEqual(before);
    result.schema.required = ["changed"];
    expect(schema.required).toEqual(["home"]);
  });

  it("turns recursive and external references into permissive schemas and reports them", () => {
    const result = cleanGeminiJSONSchema({
      type: "object",
      properties: {
        tree: { $ref: "#/$defs/Node" },
        remote: { $ref: "https://example.com/schema.json", description: "Remote" },
      },
      $defs: {
        Node: {
          type: "object",
          properties: {
            value: { type: "number" },
            children: { type: "array", items: { $ref: "#/$defs/Node" } },
          },
        },
      },
    });
    expect(result.schema).toEqual({
      type: "object",
      properties: {
        tree: {
          type: "object",
          properties: { value: { type: "number" }, children: { type: "array", items: {} } },
        },
        remote: { description: "Remote" },
      },
    });
    expect(result.unresolvedRefs).toEqual(["#/$defs/Node", "https://example.com/schema.json"]);
  });

  it("maps oneOf to anyOf, const to enum, merges allOf and removes unsupported keywords", () => {
    const result = cleanGeminiJSONSchema({
      type: "object",
      properties: {
        kind: { const: "circle" },
        size: {
          oneOf: [
            { type: "number", exclusiveMinimum: 0 },
            { type: "string", pattern: "^[0-9]+$" },
          ],
        },
        tags: { type: "array", items: { type: "string" }, uniqueItems: true, minItems: 1 },
        pair: { type: "array", items: [{ type: "string" }, { type: "number" }] },
        extra: {
          type: "object",
          additionalProperties: { type: "string", examples: ["a"] },
          patternProperties: { x: {} },
        },
        both: {
          allOf: [
            { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
            { properties: { b: { type: "number" } }, required: ["b"] },
          ],
        },
      },
    });
    expect(result.schema).toEqual({
      type: "object",
      properties: {
        kind: { enum: ["circle"] },
        size: { anyOf: [{ type: "number" }, { type: "string", pattern: "^[0-9]+$" }] },
        tags: { type: "array", items: { type: "string" }, minItems: 1 },
        pair: { type: "array", prefixItems: [{ type: "string" }, { type: "number" }] },
        extra: { type: "object", additionalProperties: { type: "string" } },
        both: {
          type: "object",
          properties: { a: { type: "string" }, b: { type: "number" } },
          required: ["a", "b"],
        },
      },
    });
    expect(result.removedKeywords).toEqual(["exclusiveMinimum", "uniqueItems", "patternProperties"]);
  });

  it("treats property names that look like keywords as names, not keywords", () => {
    const result = cleanGeminiJSONSchema({
      type: "object",
      properties: { not: { type: "boolean" }, const: { type: "string" }, $ref: { type: "string" } },
    });
    expect(result.schema).toEqual({
      type: "object",
      properties: { not: { type: "boolean" }, const: { type: "string" }, $ref: { type: "string" } },
    });
    expect(result.removedKeywords).toEqual([]);
  });
});
