/**
 * The subset of JSON Schema 2020-12 (OpenAPI 3.1's dialect) the REST layer declares its
 * parameters and resources in. One declaration feeds the request validator, the response
 * checks in the tests and /v1/openapi.json.
 */
export interface StringSchema {
  type: 'string';
  description?: string;
  enum?: readonly string[];
  pattern?: string;
  format?: 'date' | 'uri' | 'email' | 'date-time';
  minLength?: number;
  maxLength?: number;
  default?: string;
}

export interface NumberSchema {
  type: 'number' | 'integer';
  description?: string;
  minimum?: number;
  maximum?: number;
  default?: number;
}

export type JsonSchema =
  | StringSchema
  | NumberSchema
  | { type: 'boolean'; description?: string }
  | { type: 'null' }
  | { type: 'array'; description?: string; items: JsonSchema; minItems?: number }
  | {
      type: 'object';
      description?: string;
      properties: Record<string, JsonSchema>;
      required?: readonly string[];
      additionalProperties?: boolean;
    }
  | { anyOf: readonly JsonSchema[]; description?: string }
  | { $ref: string; description?: string };

/** `schema` or null. */
export function nullable(schema: JsonSchema): JsonSchema {
  return { anyOf: [schema, { type: 'null' }] };
}

/** A reference to a component schema, `#/components/schemas/<name>`. */
export function ref(name: string): JsonSchema {
  return { $ref: `#/components/schemas/${name}` };
}

/** An object whose listed properties are all required unless named in `optional`. */
export function object(
  properties: Record<string, JsonSchema>,
  optional: readonly string[] = [],
  description?: string,
): JsonSchema {
  return {
    type: 'object',
    ...(description === undefined ? {} : { description }),
    properties,
    required: Object.keys(properties).filter((k) => !optional.includes(k)),
    additionalProperties: false,
  };
}

/** A string property with its description. */
export function str(description: string): JsonSchema {
  return { type: 'string', description };
}

/** Protobuf's empty string (or an absent field) as REST's null. */
export function orNull(s: string | undefined): string | null {
  return s === undefined || s === '' ? null : s;
}
