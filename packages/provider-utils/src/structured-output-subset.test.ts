import { describe, expect, it } from "vitest";
import { structuredOutputSubset } from "./structured-output-subset.js";

const anthropic = { provider: "Anthropic" };

/** The schema sent for `schema` when it sits in a one-property object, and the warnings. */
function property(schema: Record<string, unknown>) {
  const { schema: sent, warnings } = structuredOutputSubset(
    { type: "object", properties: { value: schema }, required: ["value"] },
    anthropic,
  );
  return { sent: (sent.properties as Record<string, unknown>).value, warnings };
}

describe("structuredOutputSubset", () => {
  it("leaves a schema already in the vendors' subset as it is, key order included", () => {
    const schema = {
      type: "object",
      properties: { city: { type: "string" }, temperatureC: { type: "number" } },
      required: ["city", "temperatureC"],
      additionalProperties: false,
    };
    const { schema: sent, warnings } = structuredOutputSubset(schema, anthropic);
    expect(JSON.stringify(sent)).toBe(JSON.stringify(schema));
    expect(warnings).toEqual([]);
  });

  it("leaves out zod's safe-integer bounds on an integer (z.number().int())", () => {
    expect(property({ type: "integer", minimum: -9007199254740991, maximum: 9007199254740991 })).toEqual({
      sent: { type: "integer" },
      warnings: [],
    });
  });

  it("moves numeric ranges into the description, after the one already there", () => {
    expect(property({ type: "integer", minimum: 1, maximum: 10 }).sent).toEqual({
      type: "integer",
      description: "{minimum: 1, maximum: 10}",
    });
    expect(
      property({
        type: "number",
        description: "A share.",
        exclusiveMinimum: 0,
        exclusiveMaximum: 1,
        multipleOf: 0.5,
      }).sent,
    ).toEqual({
      type: "number",
      description: "A share.\n\n{exclusiveMinimum: 0, exclusiveMaximum: 1, multipleOf: 0.5}",
    });
    // A safe-integer bound on a number that is not an integer is a real bound.
    expect(property({ type: "number", minimum: -9007199254740991 }).sent).toEqual({
      type: "number",
      description: "{minimum: -9007199254740991}",
    });
  });

  it("moves string lengths into the description", () => {
    expect(property({ type: "string", minLength: 1, maxLength: 20 })).toEqual({
      sent: { type: "string", description: "{minLength: 1, maxLength: 20}" },
      warnings: [],
    });
  });

  it("keeps the formats the vendors take and describes the others", () => {
    for (const format of [
      "date-time",
      "time",
      "date",
      "duration",
      "email",
      "hostname",
      "uri",
      "ipv4",
      "ipv6",
      "uuid",
    ])
      expect(property({ type: "string", format }).sent).toEqual({ type: "string", format });
    expect(property({ type: "string", format: "cidrv4" }).sent).toEqual({
      type: "string",
      description: '{format: "cidrv4"}',
    });
  });

  it("keeps a simple pattern, and describes one beside a kept format or with features the vendors reject", () => {
    expect(property({ type: "string", pattern: "^[A-Z]{3}-\\d+$" }).sent).toEqual({
      type: "string",
      pattern: "^[A-Z]{3}-\\d+$",
    });
    // zod's `.email()`: the format constrains the string; its long pattern goes to the description.
    expect(property({ type: "string", format: "email", pattern: "^[^@]+@[^@]+$" }).sent).toEqual({
      type: "string",
      format: "email",
      description: '{pattern: "^[^@]+@[^@]+$"}',
    });
    for (const pattern of [
      "^(a)\\1$",
      "^(?=.*\\d).+$",
      "^(?!x).+$",
      "(?<=a)b",
      "(?<!a)b",
      "\\bword\\b",
      "^a{1000,}$",
      "^a{2,5000}$",
    ])
      expect(property({ type: "string", pattern }).sent).toEqual({
        type: "string",
        description: `{pattern: ${JSON.stringify(pattern)}}`,
      });
  });

  it("sends minItems 0 or 1 as it is, a larger one as 1 plus the description, and describes maxItems", () => {
    expect(property({ type: "array", items: { type: "string" }, minItems: 1 }).sent).toEqual({
      type: "array",
      items: { type: "string" },
      minItems: 1,
    });
    expect(
      property({ minItems: 2, maxItems: 5, type: "array", items: { type: "string", maxLength: 3 } }).sent,
    ).toEqual({
      minItems: 1,
      type: "array",
      items: { type: "string", description: "{maxLength: 3}" },
      description: "{minItems: 2, maxItems: 5}",
    });
    // A tuple (z.tuple): the vendors take no prefixItems; the array is described.
    expect(
      property({
        type: "array",
        prefixItems: [{ type: "string" }, { type: "number" }],
        items: false,
        minItems: 2,
        maxItems: 2,
      }).sent,
    ).toEqual({
      type: "array",
      minItems: 1,
      description:
        '{prefixItems: [{"type":"string"},{"type":"number"}], items: false, minItems: 2, maxItems: 2}',
    });
  });

  it("closes nested objects, in properties, items, unions and definitions, without touching the input", () => {
    const schema = {
      type: "object",
      properties: {
        place: { type: "object", properties: { city: { type: "string", minLength: 1 } }, required: ["city"] },
        list: { type: "array", items: { type: "object", properties: { n: { type: "number" } } } },
        either: { anyOf: [{ type: "object", properties: {} }, { type: "null" }] },
        point: { $ref: "#/$defs/point" },
      },
      $defs: { point: { type: "object", properties: { x: { type: "number", maximum: 5 } } } },
    };
    const before = structuredClone(schema);
    expect(structuredOutputSubset(schema, anthropic)).toEqual({
      schema: {
        type: "object",
        properties: {
          place: {
            type: "object",
            properties: { city: { type: "string", description: "{minLength: 1}" } },
            required: ["city"],
            additionalProperties: false,
          },
          list: {
            type: "array",
            items: { type: "object", properties: { n: { type: "number" } }, additionalProperties: false },
          },
          either: {
            anyOf: [{ type: "object", properties: {}, additionalProperties: false }, { type: "null" }],
          },
          point: { $ref: "#/$defs/point" },
        },
        $defs: {
          point: {
            type: "object",
            properties: { x: { type: "number", description: "{maximum: 5}" } },
            additionalProperties: false,
          },
        },
        additionalProperties: false,
      },
      warnings: [],
    });
    expect(schema).toEqual(before);
  });

  it("turns oneOf into anyOf (z.discriminatedUnion) and keeps allOf, recursing into both", () => {
    expect(
      property({
        oneOf: [
          { type: "object", properties: { k: { type: "string", const: "a" } }, required: ["k"] },
          { type: "object", properties: { v: { type: "number", multipleOf: 2 } } },
        ],
      }).sent,
    ).toEqual({
      anyOf: [
        {
          type: "object",
          properties: { k: { type: "string", const: "a" } },
          required: ["k"],
          additionalProperties: false,
        },
        {
          type: "object",
          properties: { v: { type: "number", description: "{multipleOf: 2}" } },
          additionalProperties: false,
        },
      ],
    });
    expect(
      property({
        allOf: [
          { type: "string", maxLength: 4 },
          { type: "string", format: "date" },
        ],
      }).sent,
    ).toEqual({
      allOf: [
        { type: "string", description: "{maxLength: 4}" },
        { type: "string", format: "date" },
      ],
    });
  });

  it("keeps nullable forms: a type array and anyOf with null", () => {
    expect(property({ type: ["string", "null"], maxLength: 3 }).sent).toEqual({
      type: ["string", "null"],
      description: "{maxLength: 3}",
    });
    expect(property({ anyOf: [{ type: "number", exclusiveMinimum: 0 }, { type: "null" }] }).sent).toEqual({
      anyOf: [{ type: "number", description: "{exclusiveMinimum: 0}" }, { type: "null" }],
    });
    expect(
      property({
        anyOf: [{ type: "integer", minimum: -9007199254740991, maximum: 9007199254740991 }, { type: "null" }],
      }).sent,
    ).toEqual({ anyOf: [{ type: "integer" }, { type: "null" }] });
  });

  it("keeps enums and consts of plain values, and describes ones holding objects", () => {
    expect(property({ type: "string", enum: ["x", "y"] }).sent).toEqual({ type: "string", enum: ["x", "y"] });
    expect(property({ enum: [1, "a", null, true] }).sent).toEqual({ enum: [1, "a", null, true] });
    expect(property({ type: "object", const: { a: 1 } }).sent).toEqual({
      type: "object",
      properties: {},
      additionalProperties: false,
      description: '{const: {"a":1}}',
    });
  });

  it("keeps $ref, $defs and definitions, and a $ref's own description, and leaves out $schema", () => {
    const { schema } = structuredOutputSubset(
      {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        properties: {
          a: { $ref: "#/$defs/name", description: "The first name." },
          b: { $ref: "#/definitions/count" },
        },
        required: ["a", "b"],
        $defs: { name: { type: "string", minLength: 2 } },
        definitions: { count: { type: "integer", minimum: 0 } },
      },
      anthropic,
    );
    expect(schema).toEqual({
      type: "object",
      properties: {
        a: { $ref: "#/$defs/name", description: "The first name." },
        b: { $ref: "#/definitions/count" },
      },
      required: ["a", "b"],
      $defs: { name: { type: "string", description: "{minLength: 2}" } },
      definitions: { count: { type: "integer", description: "{minimum: 0}" } },
      additionalProperties: false,
    });
  });

  it("closes an open map (z.record(z.string(), …)), describes it and warns that the model can only answer {}", () => {
    const { schema, warnings } = structuredOutputSubset(
      {
        type: "object",
        properties: {
          extra: {
            type: "object",
            propertyNames: { type: "string" },
            additionalProperties: { type: "number" },
          },
          tagged: { type: "object", patternProperties: { "^x-": { type: "string" } } },
        },
        required: ["extra"],
      },
      { provider: "Bedrock" },
    );
    expect(schema).toEqual({
      type: "object",
      properties: {
        extra: {
          type: "object",
          additionalProperties: false,
          properties: {},
          description: '{propertyNames: {"type":"string"}, additionalProperties: {"type":"number"}}',
        },
        tagged: {
          type: "object",
          properties: {},
          additionalProperties: false,
          description: '{patternProperties: {"^x-":{"type":"string"}}}',
        },
      },
      required: ["extra"],
      additionalProperties: false,
    });
    expect(warnings).toEqual([
      {
        code: "output-schema-open-map",
        message:
          "Bedrock's structured output needs every object closed (additionalProperties: false), so the maps at #/properties/extra, #/properties/tagged were sent as an object without keys and the model can only answer {} there; the answer is still checked against the full schema. Give the object named properties, or use an array of { key, value } entries.",
      },
    ]);
  });

  it("spells out a map over a closed set of keys (z.record(z.enum([...]), …)) as properties, with no warning", () => {
    expect(
      property({
        type: "object",
        propertyNames: { type: "string", enum: ["a", "b"] },
        additionalProperties: { type: "string", maxLength: 9 },
        required: ["a", "b"],
      }),
    ).toEqual({
      sent: {
        type: "object",
        additionalProperties: false,
        required: ["a", "b"],
        properties: {
          a: { type: "string", description: "{maxLength: 9}" },
          b: { type: "string", description: "{maxLength: 9}" },
        },
      },
      warnings: [],
    });
  });

  it("closes an object with additionalProperties: true (z.looseObject) without a warning: every answer stays valid", () => {
    expect(
      property({ type: "object", properties: { a: { type: "string" } }, additionalProperties: true }),
    ).toEqual({
      sent: { type: "object", properties: { a: { type: "string" } }, additionalProperties: false },
      warnings: [],
    });
  });

  it("describes keywords it does not know, and names a JSON pointer with escaped property names", () => {
    expect(property({ type: "string", examples: ["a"], "x-vendor": 1 }).sent).toEqual({
      type: "string",
      description: '{examples: ["a"], x-vendor: 1}',
    });
    const { warnings } = structuredOutputSubset(
      {
        type: "object",
        properties: { "a/b~c": { type: "object", additionalProperties: { type: "string" } } },
      },
      anthropic,
    );
    expect(warnings[0]!.message).toContain("the map at #/properties/a~1b~0c was sent");
  });

  it("warns about a recursive schema, through # or through a definition, and sends it as it is", () => {
    const tree = {
      type: "object",
      properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#" } } },
      required: ["name", "children"],
    };
    const { schema, warnings } = structuredOutputSubset(tree, anthropic);
    expect(schema).toEqual({
      type: "object",
      properties: {
        name: { type: "string" },
        children: { type: "array", items: { $ref: "#" } },
      },
      required: ["name", "children"],
      additionalProperties: false,
    });
    expect(warnings).toEqual([
      {
        code: "output-schema-recursive",
        message:
          "Anthropic's structured output does not take recursive schemas, and this one refers back to itself through #; the vendor is likely to reject the request. Write the nesting out to a fixed depth, or ask for a flat list whose items name their parent.",
      },
    ]);
    // zod's form for a recursive schema inside another: a definition that refers to itself, via another.
    const viaDefinitions = structuredOutputSubset(
      {
        type: "object",
        properties: { root: { $ref: "#/$defs/a" } },
        $defs: {
          a: { type: "object", properties: { b: { $ref: "#/$defs/b" } } },
          b: { type: "array", items: { $ref: "#/$defs/a" } },
          leaf: { type: "string" },
        },
      },
      anthropic,
    );
    expect(viaDefinitions.warnings.map((warning) => warning.message)).toEqual([
      expect.stringContaining("refers back to itself through #/$defs/a, #/$defs/b;"),
    ]);
    // A definition used twice is no recursion.
    expect(
      structuredOutputSubset(
        {
          type: "object",
          properties: { a: { $ref: "#/$defs/point" }, b: { $ref: "#/$defs/point" } },
          $defs: { point: { type: "object", properties: { x: { type: "number" } } } },
        },
        anthropic,
      ).warnings,
    ).toEqual([]);
  });
});
