import { LATEST_VERSION } from '@civicgraph/kit';
import type { Endpoint } from '../endpoint.js';
import type { JsonSchema } from '../schema/json-schema.js';
import type { ParamSpec } from '../schema/params.js';
import { EXAMPLES } from './examples.js';
import type { DocumentInfo } from './info.js';
import {
  answerHeaders,
  COMMON_ERRORS,
  HEADERS,
  notModified,
  problemExamples,
  problemResponses,
  type Json,
} from './responses.js';

/** The dialect the component schemas are written in (OpenAPI 3.1's own, without its extensions). */
export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/** Header parameters every operation takes, in `components.parameters`. */
const HEADER_PARAMETERS: Record<string, Json> = {
  CivicVersion: {
    name: 'Civic-Version',
    in: 'header',
    required: false,
    description:
      "Pins the response shapes to a dated version; default the key's pinned version, else the newest. An unknown one is a 400 `unsupported_version`.",
    schema: { type: 'string', format: 'date' },
    example: LATEST_VERSION,
  },
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description:
      'The `ETag` of a copy you hold: if it is still current the answer is a `304`, not counted against the rate limit.',
    schema: { type: 'string' },
  },
};

/** An OpenAPI parameter object from a ParamSpec (the very schema `readParams` applies). */
export function parameterOf(spec: ParamSpec): Json {
  return {
    name: spec.name,
    in: spec.in,
    required: spec.required,
    description: spec.description,
    schema: spec.schema,
    ...(spec.example === undefined ? {} : { example: spec.example }),
  };
}

/** The operation object of one endpoint: parameters, 200 with its example, 304, and its problems. */
export function operationOf(endpoint: Endpoint, examples: Readonly<Record<string, unknown>> = EXAMPLES): Json {
  const example = examples[endpoint.operationId];
  return {
    operationId: endpoint.operationId,
    tags: [endpoint.tag],
    summary: endpoint.summary,
    description: endpoint.description,
    parameters: [
      ...endpoint.params.map(parameterOf),
      ...Object.keys(HEADER_PARAMETERS).map((name) => ({ $ref: `#/components/parameters/${name}` })),
    ],
    responses: {
      200: {
        description: endpoint.summary,
        headers: answerHeaders(),
        content: {
          [endpoint.contentType ?? 'application/json']: {
            schema: { $ref: `#/components/schemas/${endpoint.response}` },
            ...(example === undefined ? {} : { example }),
          },
        },
      },
      304: notModified(),
      ...problemResponses([...endpoint.errors, ...COMMON_ERRORS]),
    },
  };
}

function tagsOf(endpoints: readonly Endpoint[], info: DocumentInfo): Json[] {
  const names = [...new Set(endpoints.map((e) => e.tag))];
  return names.map((name) => ({ name, ...(info.tags?.[name] === undefined ? {} : { description: info.tags[name] }) }));
}

function pathsOf(endpoints: readonly Endpoint[], examples: Readonly<Record<string, unknown>>): Json {
  const paths: Record<string, Json> = {};
  for (const endpoint of endpoints) {
    if (paths[endpoint.path] !== undefined) throw new Error(`Two endpoints declare GET ${endpoint.path}.`);
    paths[endpoint.path] = { get: operationOf(endpoint, examples) };
  }
  return paths;
}

/**
 * The OpenAPI 3.1 document of the REST API, generated from the endpoint registry and the
 * component schemas (the same declarations that validate requests and shape responses).
 * `examples` are 200 bodies by operationId (default: the checked-in demo answers).
 */
export function buildOpenApi(
  endpoints: readonly Endpoint[],
  components: Readonly<Record<string, JsonSchema>>,
  info: DocumentInfo,
  examples: Readonly<Record<string, unknown>> = EXAMPLES,
): Json {
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: JSON_SCHEMA_DIALECT,
    info: { title: info.title, version: info.version, description: info.description },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    tags: tagsOf(endpoints, info),
    paths: pathsOf(endpoints, examples),
    components: {
      schemas: components,
      parameters: HEADER_PARAMETERS,
      headers: HEADERS,
      examples: problemExamples(),
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'cg_live_… or cg_test_… API key',
          description: 'Your API key: `Authorization: Bearer <key>`.',
        },
      },
    },
  };
}
