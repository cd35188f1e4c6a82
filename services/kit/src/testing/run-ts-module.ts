import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { scaled } from './time-scale.js';

/**
 * Test support: runs an ES module snippet in a separate Node process that can import this
 * package's TypeScript sources, so tests can exercise a store from a second process the
 * way the `civicgraph keys` CLI does. Node 20 cannot load .ts files itself; a loader hook
 * transpiles them with the repository's TypeScript (types stripped, nothing checked) and,
 * like the vitest alias, maps `@civicgraph/protos/<path>` to the generated sources.
 */

const run = promisify(execFile);

/** Result of a child run: its stdout, trimmed. */
export interface ChildResult {
  stdout: string;
}

/**
 * Runs `body` (module code; may use top-level await and `await import(url)` of .ts files)
 * in `node --input-type=module -e`. Rejects if the child exits non-zero, unless
 * `allowSignal` names the signal it was expected to die by.
 */
export async function runTsModule(body: string, allowSignal?: NodeJS.Signals): Promise<ChildResult> {
  const code = `import { register } from 'node:module';\nregister(${JSON.stringify(hooksUrl())});\n${body}`;
  try {
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', code], { timeout: scaled(20_000) });
    return { stdout: stdout.trim() };
  } catch (err) {
    const failed = err as { signal?: string; stdout?: string };
    if (allowSignal !== undefined && failed.signal === allowSignal) return { stdout: (failed.stdout ?? '').trim() };
    throw err;
  }
}

/** Resolve and load hooks, as a data: URL so no file is written anywhere. */
function hooksUrl(): string {
  const typescript = pathToFileURL(createRequire(import.meta.url).resolve('typescript')).href;
  const protosGen = new URL('../../../../protos/gen/', import.meta.url).href;
  const source = `
import { access, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import ts from ${JSON.stringify(typescript)};
export async function resolve(specifier, context, next) {
  if (specifier.startsWith('@civicgraph/protos/')) {
    return { url: new URL(specifier.slice('@civicgraph/protos/'.length) + '.ts', ${JSON.stringify(protosGen)}).href, shortCircuit: true };
  }
  if (specifier.startsWith('.') && specifier.endsWith('.js') && context.parentURL?.endsWith('.ts')) {
    const url = new URL(specifier.slice(0, -3) + '.ts', context.parentURL);
    try { await access(url); return { url: url.href, shortCircuit: true }; } catch {}
  }
  return next(specifier, context);
}
export async function load(url, context, next) {
  if (!url.endsWith('.ts')) return next(url, context);
  const text = await readFile(new URL(url), 'utf8');
  const options = { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 };
  const out = ts.transpileModule(text, { fileName: fileURLToPath(url), compilerOptions: options });
  return { format: 'module', source: out.outputText, shortCircuit: true };
}`;
  return `data:text/javascript,${encodeURIComponent(source)}`;
}
