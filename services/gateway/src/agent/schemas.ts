import * as z from 'zod';
import { COMPONENTS } from '../rest/schema/components.js';
import type { JsonSchema } from '../rest/schema/json-schema.js';
import type { ParamSpec } from '../rest/schema/params.js';
import { CONTACT_FIELDS } from '../rest/resources/candidacy.js';
import { OFFICEHOLDER_CONTACT_FIELDS } from '../rest/resources/officeholder.js';

/**
 * The agent's tool schemas, derived from the REST layer's own declarations so the two
 * layers cannot drift: a tool's arguments are its REST endpoint's parameters (same names,
 * same checks), and its answer is the REST resource (same component schema).
 */

/** A tool's input, as the MCP SDK takes it: one zod type per argument. */
export type InputShape = Record<string, z.ZodType>;

/**
 * The zod shape of REST parameters. Only the JSON type is enforced by zod (the SDK refuses a
 * wrong type before the tool runs); the value rules — ranges, patterns, enums, date format —
 * are advertised in the JSON Schema through `meta` and checked by REST's `readParams` in the
 * tool, so a bad value comes back as the problem REST answers, naming the parameter.
 */
export function inputShape(specs: readonly ParamSpec[]): InputShape {
  const shape: InputShape = {};
  for (const spec of specs) {
    const { type, description: _d, ...rules } = spec.schema;
    const base = type === 'string' ? z.string() : type === 'integer' ? z.int() : z.number();
    const described = base.meta({ ...rules, description: spec.description });
    shape[spec.name] = spec.required ? described : described.optional();
  }
  return shape;
}

/** Every contact field of every resource (REST names): absent from the schemas a key without `contact` sees. */
const CONTACT: ReadonlySet<string> = new Set([...CONTACT_FIELDS, ...OFFICEHOLDER_CONTACT_FIELDS]);

/**
 * A REST component as a self-contained JSON Schema: references inlined, contact fields
 * removed unless `contact`, and string formats other than `date` left out of the check
 * (zod's e-mail and URI rules are narrower than the sources' data; the type still holds).
 */
export function resolvedComponent(name: string, contact: boolean): JsonSchema {
  const component = COMPONENTS[name];
  if (component === undefined) throw new Error(`No component schema ${name}.`);
  return resolve(component, contact);
}

function resolve(schema: JsonSchema, contact: boolean): JsonSchema {
  if ('$ref' in schema) return resolvedComponent(schema.$ref.slice('#/components/schemas/'.length), contact);
  if ('anyOf' in schema) return { ...schema, anyOf: schema.anyOf.map((s) => resolve(s, contact)) };
  switch (schema.type) {
    case 'array':
      return { ...schema, items: resolve(schema.items, contact) };
    case 'object': {
      const kept = Object.entries(schema.properties).filter(([k]) => contact || !CONTACT.has(k));
      return {
        ...schema,
        properties: Object.fromEntries(kept.map(([k, v]) => [k, resolve(v, contact)])),
        ...(schema.required === undefined
          ? {}
          : { required: schema.required.filter((k) => contact || !CONTACT.has(k)) }),
      };
    }
    case 'string': {
      if (schema.format === undefined || schema.format === 'date') return schema;
      const { format: _f, ...rest } = schema;
      return rest;
    }
    default:
      return schema;
  }
}

/**
 * Two object schemas as one whose properties are either's and whose required ones are
 * both's: one tool answering in two REST shapes (find_districts by point or by address).
 */
export function eitherObject(a: JsonSchema, b: JsonSchema, description: string): JsonSchema {
  if (!('type' in a) || a.type !== 'object' || !('type' in b) || b.type !== 'object')
    throw new Error('eitherObject joins object schemas');
  return {
    type: 'object',
    description,
    properties: { ...a.properties, ...b.properties },
    required: (a.required ?? []).filter((k) => (b.required ?? []).includes(k)),
    additionalProperties: false,
  };
}

/** A JSON Schema as the zod type the SDK advertises and checks each answer against. */
export function outputSchema(schema: JsonSchema): z.ZodType {
  return z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
}
