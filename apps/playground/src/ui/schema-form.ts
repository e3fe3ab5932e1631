import { errorMessage, JunctionError } from "@junction/types";
import { h } from "./dom.js";

type Property = {
  type?: string | string[];
  title?: string;
  description?: string;
  enum?: unknown[];
  oneOf?: { const: string; title?: string }[];
  default?: unknown;
  format?: string;
  items?: { enum?: string[]; anyOf?: { const: string; title?: string }[] };
};

/** A form generated from a JSON Schema object; `read()` returns the value or throws a readable message. */
export interface SchemaForm {
  element: HTMLElement;
  read(): Record<string, unknown>;
}

/**
 * Builds inputs for each property: text, number, checkbox, select for enums, a JSON text box
 * for objects and arrays. Empty optional fields are left out, so the server's defaults apply.
 */
export function schemaForm(
  schema: unknown,
  idPrefix: string,
  emptyText = "This takes no arguments.",
): SchemaForm {
  const object = (typeof schema === "object" && schema !== null ? schema : {}) as {
    properties?: Record<string, Property>;
    required?: string[];
  };
  const properties = object.properties ?? {};
  const required = new Set(Array.isArray(object.required) ? object.required : []);
  const readers: (() => [string, unknown] | undefined)[] = [];
  const element = h("div", { class: "schema-form" });
  const names = Object.keys(properties);
  if (names.length === 0 && emptyText) element.append(h("div", { class: "muted" }, emptyText));
  for (const name of names) {
    const property = properties[name] ?? {};
    const type = Array.isArray(property.type) ? property.type.find((t) => t !== "null") : property.type;
    const id = `${idPrefix}-${name}`;
    const label = h(
      "label",
      { for: id },
      property.title ?? name,
      required.has(name) ? h("span", { class: "required", title: "required" }, " *") : null,
      property.title && property.title !== name ? h("span", { class: "muted" }, ` (${name})`) : null,
    );
    const help = property.description ? h("div", { class: "muted help" }, property.description) : null;
    let input: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
    let read: () => unknown;
    const options = property.enum
      ? property.enum.map((value) => ({ value: String(value), title: String(value) }))
      : property.oneOf?.map((option) => ({ value: option.const, title: option.title ?? option.const }));
    if (options && (type === "string" || type === undefined)) {
      const select = h("select", { id, name, testid: `field-${name}` });
      if (!required.has(name)) select.append(h("option", { value: "" }, "—"));
      for (const option of options) select.append(h("option", { value: option.value }, option.title));
      if (property.default !== undefined) select.value = String(property.default);
      input = select;
      read = () => (select.value === "" ? undefined : select.value);
    } else if (type === "array" && (property.items?.enum || property.items?.anyOf)) {
      const choices =
        property.items.enum?.map((value) => ({ value, title: value })) ??
        property.items.anyOf!.map((option) => ({ value: option.const, title: option.title ?? option.const }));
      const select = h("select", { id, name, testid: `field-${name}` });
      select.multiple = true;
      const defaults = Array.isArray(property.default) ? property.default.map(String) : [];
      for (const choice of choices) {
        const option = h("option", { value: choice.value }, choice.title);
        option.selected = defaults.includes(choice.value);
        select.append(option);
      }
      input = select;
      read = () => {
        const values = [...select.selectedOptions].map((option) => option.value);
        return values.length === 0 && !required.has(name) ? undefined : values;
      };
    } else if (type === "boolean") {
      const checkbox = h("input", { id, name, type: "checkbox", testid: `field-${name}` });
      checkbox.checked = property.default === true;
      input = checkbox;
      read = () => checkbox.checked;
    } else if (type === "number" || type === "integer") {
      const number = h("input", {
        id,
        name,
        type: "number",
        step: type === "integer" ? "1" : "any",
        testid: `field-${name}`,
      });
      if (property.default !== undefined) number.value = String(property.default);
      input = number;
      read = () => {
        if (number.value.trim() === "") return undefined;
        const value = Number(number.value);
        if (Number.isNaN(value)) throw new JunctionError("invalid-argument", `${name} must be a number.`);
        return value;
      };
    } else if (type === "string") {
      const text =
        property.format === "date"
          ? h("input", { id, name, type: "date", testid: `field-${name}` })
          : h("input", { id, name, type: "text", testid: `field-${name}` });
      if (property.default !== undefined) text.value = String(property.default);
      input = text;
      read = () => (text.value === "" ? undefined : text.value);
    } else {
      const area = h("textarea", {
        id,
        name,
        rows: 3,
        placeholder: type === "array" ? "JSON array, e.g. []" : "JSON value",
        testid: `field-${name}`,
      });
      if (property.default !== undefined) area.value = JSON.stringify(property.default);
      input = area;
      read = () => {
        if (area.value.trim() === "") return undefined;
        try {
          return JSON.parse(area.value);
        } catch (error) {
          throw new JunctionError("invalid-argument", `${name} is not valid JSON: ${errorMessage(error)}`);
        }
      };
    }
    readers.push(() => {
      const value = read();
      return value === undefined ? undefined : [name, value];
    });
    element.append(h("div", { class: "field" }, label, input, help));
  }
  return {
    element,
    read() {
      const result: Record<string, unknown> = {};
      for (const reader of readers) {
        const entry = reader();
        if (entry) result[entry[0]] = entry[1];
      }
      return result;
    },
  };
}
