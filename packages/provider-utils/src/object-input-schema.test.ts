import { describe, expect, it } from "vitest";
import { objectInputSchema } from "./object-input-schema.js";

const acme = { provider: "Acme" };

describe("objectInputSchema", () => {
  it("copies an object schema, adding type object where there is none", () => {
    const inputSchema = { type: "object", properties: { q: { type: "string" } } };
    const result = objectInputSchema({ name: "search", inputSchema }, acme);
    expect(result).toEqual({ schema: inputSchema });
    expect(result.schema).not.toBe(inputSchema);
    expect(result.schema.properties).not.toBe(inputSchema.properties);
    const untyped = { properties: { q: { type: "string" } } };
    expect(objectInputSchema({ name: "search", inputSchema: untyped }, acme)).toEqual({
      schema: { properties: { q: { type: "string" } }, type: "object" },
    });
    expect(untyped).toEqual({ properties: { q: { type: "string" } } });
  });

  it("opens a schema with a combinator or another type at the top, keeping its description", () => {
    expect(
      objectInputSchema(
        { name: "b", inputSchema: { anyOf: [{ type: "object" }], description: "either" } },
        acme,
      ),
    ).toEqual({
      schema: { type: "object", description: "either" },
      warning: {
        code: "tool-schema-unsupported",
        message:
          'Tool "b": Acme needs an object schema at the top, not "anyOf"; an open object schema was sent instead, and the tool validates its input itself.',
      },
    });
    expect(objectInputSchema({ name: "c", inputSchema: { type: "array" } }, acme)).toEqual({
      schema: { type: "object" },
      warning: {
        code: "tool-schema-unsupported",
        message:
          'Tool "c": Acme needs an object schema at the top, not type "array"; an open object schema was sent instead, and the tool validates its input itself.',
      },
    });
  });

  it("sends an open object schema for something that is no schema object", () => {
    for (const inputSchema of [null, "schema", [{ type: "object" }]]) {
      expect(objectInputSchema({ name: "d", inputSchema }, acme)).toEqual({
        schema: { type: "object" },
        warning: {
          code: "tool-schema-invalid",
          message:
            'Tool "d" has no JSON Schema object as its input schema; an open object schema was sent instead.',
        },
      });
    }
  });
});
