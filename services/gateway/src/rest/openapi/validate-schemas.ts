import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { JsonSchema } from '../schema/json-schema.js';
import type { Json } from './responses.js';

/*
 * Test support: compiles the documented schemas with a real JSON Schema 2020-12 validator.
 * Imported by tests only (ajv is a devDependency of the gateway).
 */

const ID = 'urn:civicgraph:components';

/** Checks a value against a component schema: the errors, empty when it conforms. */
export type SchemaCheck = (name: string, value: unknown) => string[];

/**
 * A checker for the component schemas (strict: unknown keywords are refused; the resource
 * schemas themselves refuse unknown properties). Refs `#/components/schemas/X` resolve
 * among `components` as they do inside the OpenAPI document.
 */
export function schemaChecker(components: Readonly<Record<string, JsonSchema>>): SchemaCheck {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats.default(ajv);
  const defs = JSON.parse(JSON.stringify(components).replaceAll('"#/components/schemas/', '"#/$defs/')) as Json;
  ajv.addSchema({ $id: ID, $defs: defs });
  return (name, value) => {
    const validate = ajv.getSchema(`${ID}#/$defs/${name}`);
    if (validate === undefined) return [`no component schema ${name}`];
    if (validate(value)) return [];
    return (validate.errors ?? []).map(
      (e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`,
    );
  };
}

/** The component name a `{$ref: '#/components/schemas/X'}` points at. */
export function refName(schema: unknown): string {
  const ref = (schema as { $ref?: unknown } | undefined)?.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/components/schemas/'))
    throw new Error(`not a component ref: ${JSON.stringify(schema)}`);
  return ref.slice('#/components/schemas/'.length);
}

/** The 200 media type object (schema and example) of GET `path` in an OpenAPI document. */
export function okContent(doc: Json, path: string): { type: string; schema: unknown; example?: unknown } {
  const op = (doc['paths'] as Record<string, Json>)[path]?.['get'] as Json | undefined;
  const ok = (op?.['responses'] as Record<string, Json> | undefined)?.['200'];
  const content = ok?.['content'] as Record<string, { schema: unknown; example?: unknown }> | undefined;
  const [type, media] = Object.entries(content ?? {})[0] ?? [];
  if (type === undefined || media === undefined) throw new Error(`GET ${path} documents no 200 body`);
  return { type, ...media };
}
