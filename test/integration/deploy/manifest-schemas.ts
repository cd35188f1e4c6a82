import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import ts from 'typescript';

/**
 * Offline validation of rendered Kubernetes manifests. No cluster and no kubeconform here,
 * so the built-in kinds are checked against `kubernetes-types` (TypeScript declarations
 * generated from the Kubernetes OpenAPI document) by compiling each manifest as a typed
 * object literal: a misspelt or misplaced field is an excess property, a wrong type or a
 * missing required field a type error, each reported with the manifest it is in.
 * Custom resources are checked against the operator's own schema (ArangoDeployment).
 */
export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
  spec?: any;
}

const here = fileURLToPath(new URL('.', import.meta.url));

/** apiVersion → the kubernetes-types module declaring its kinds. */
const MODULES: Record<string, string> = {
  v1: 'core/v1',
  'apps/v1': 'apps/v1',
  'autoscaling/v2': 'autoscaling/v2',
  'policy/v1': 'policy/v1',
  'networking.k8s.io/v1': 'networking/v1',
  'rbac.authorization.k8s.io/v1': 'rbac/v1',
  'batch/v1': 'batch/v1',
};

const CUSTOM: Record<string, string> = {
  'database.arangodb.com/v1/ArangoDeployment': 'arangodeployment-v1.schema.json',
};

/** Every problem found in `manifests`, each naming kind/name; empty when all are valid. */
export function manifestProblems(manifests: readonly Manifest[]): string[] {
  const builtIn = manifests.filter((m) => MODULES[m.apiVersion] !== undefined);
  const problems = typeProblems(builtIn);
  for (const m of manifests) {
    if (MODULES[m.apiVersion] !== undefined) continue;
    const schema = CUSTOM[`${m.apiVersion}/${m.kind}`];
    if (schema === undefined) problems.push(`${m.kind}/${m.metadata.name}: no schema for ${m.apiVersion} ${m.kind}`);
    else problems.push(...schemaProblems(m, schema));
  }
  return problems;
}

const validators = new Map<string, ReturnType<Ajv['compile']>>();

function schemaProblems(m: Manifest, file: string): string[] {
  let validate = validators.get(file);
  if (validate === undefined) {
    validate = new Ajv({ strict: false, allErrors: true, validateFormats: false }).compile(
      JSON.parse(readFileSync(join(here, file), 'utf8')),
    );
    validators.set(file, validate);
  }
  if (validate(m)) return [];
  return (validate.errors ?? []).map(
    (e) =>
      `${m.kind}/${m.metadata.name}: ${e.instancePath || '/'} ${e.message}${
        e.params['additionalProperty'] ? ` (${e.params['additionalProperty']})` : ''
      }`,
  );
}

const require = createRequire(import.meta.url);
const typesDir = join(require.resolve('kubernetes-types/package.json'), '..');

/** One line per manifest, `export const m<i>: <Kind> = <json>;`, compiled in memory. */
function typeProblems(manifests: readonly Manifest[]): string[] {
  if (manifests.length === 0) return [];
  const modules = [...new Set(manifests.map((m) => MODULES[m.apiVersion]!))];
  const header = modules.map((mod, i) => `import type * as k${i} from '${join(typesDir, mod)}';`);
  const lines = manifests.map(
    (m, i) => `export const m${i}: k${modules.indexOf(MODULES[m.apiVersion]!)}.${m.kind} = ${JSON.stringify(m)};`,
  );
  const file = join(here, '__manifests__.ts');
  const text = [...header, ...lines].join('\n');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    lib: ['lib.es5.d.ts'],
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version, ...rest) =>
    name === file ? ts.createSourceFile(name, text, version) : getSourceFile(name, version, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === file || fileExists(name);
  const program = ts.createProgram([file], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const message = ts.flattenDiagnosticMessageText(d.messageText, ' ');
    if (d.file?.fileName !== file || d.start === undefined) return message;
    const line = d.file.getLineAndCharacterOfPosition(d.start).line - header.length;
    const m = manifests[line];
    return m === undefined ? message : `${m.kind}/${m.metadata.name}: ${message}`;
  });
}
