import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from "@modelcontextprotocol/client";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/client/validators/ajv";

/**
 * A JSON Schema validator that builds its Ajv instance on the first schema it is asked for.
 * Building one costs about as much client CPU as the whole initialize handshake, and most
 * connections never see an `outputSchema`: they should not pay for it. One per connection (not
 * shared), so compiled schemas go away with the connection.
 */
export class LazySchemaValidator implements jsonSchemaValidator {
  private ajv?: AjvJsonSchemaValidator;

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    this.ajv ??= new AjvJsonSchemaValidator();
    return this.ajv.getValidator<T>(schema);
  }
}
