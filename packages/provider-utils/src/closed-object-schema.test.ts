import { describe, expect, it } from "vitest";
import { closedObjectSchema } from "./closed-object-schema.js";

describe("closedObjectSchema", () => {
  it("closes every object that does not say otherwise, nested ones too, without touching the input", () => {
    const schema = {
      type: "object",
      properties: {
        place: { type: "object", properties: { city: { type: "string" } } },
        tags: { type: "array", items: { type: "object", properties: { name: { type: "string" } } } },
        extra: { type: "object", additionalProperties: { type: "number" } },
        either: { anyOf: [{ type: "object", properties: {} }, { type: "null" }] },
      },
      $defs: { point: { type: "object", properties: { x: { type: "number" } } } },
    };
    const before = structuredClone(schema);
    expect(closedObjectSchema(schema)).toEqual({
      type: "object",
      additionalProperties: false,
      properties: {
        place: { type: "object", properties: { city: { type: "string" } }, additionalProperties: false },
        tags: {
          type: "array",
          items: { type: "object", properties: { name: { type: "string" } }, additionalProperties: false },
        },
        extra: { type: "object", additionalProperties: { type: "number" } },
        either: {
          anyOf: [{ type: "object", properties: {}, additionalProperties: false }, { type: "null" }],
        },
      },
      $defs: {
        point: { type: "object", properties: { x: { type: "number" } }, additionalProperties: false },
      },
    });
    expect(schema).toEqual(before);
  });
});
