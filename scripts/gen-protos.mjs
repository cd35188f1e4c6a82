#!/usr/bin/env node
// Generates protos/gen from protos/**/*.proto with the npm `protoc` binary and ts-proto.
// `--check` regenerates into a temporary folder and fails when protos/gen would change,
// so generated code can never drift from its contract.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(import.meta.url), '../..');
const protoDir = join(root, 'protos');
const genDirArg = process.argv.indexOf('--gen-dir');
// --gen-dir lets the drift test point the check at a deliberately stale copy.
const genDir = genDirArg > 0 ? resolve(process.argv[genDirArg + 1]) : join(protoDir, 'gen');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const options = [
  'outputServices=grpc-js',
  'esModuleInterop=true',
  'env=node',
  'useOptionals=messages',
  'importSuffix=.js',
  'forceLong=string',
  'stringEnums=false',
  'useExactTypes=false',
].join(',');

function walk(dir, ext) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory())
      return name === 'gen' || name === 'node_modules' || name === 'dist' ? [] : walk(path, ext);
    return path.endsWith(ext) ? [path] : [];
  });
}

function generate(outDir) {
  const protos = walk(protoDir, '.proto')
    .map((p) => relative(protoDir, p))
    .sort();
  execFileSync(
    bin('protoc'),
    [
      `--plugin=protoc-gen-ts_proto=${bin('protoc-gen-ts_proto')}`,
      '-I',
      protoDir,
      `--ts_proto_out=${outDir}`,
      `--ts_proto_opt=${options}`,
      ...protos,
    ],
    { cwd: protoDir, stdio: 'inherit' },
  );
}

function snapshot(dir) {
  return new Map(walk(dir, '.ts').map((p) => [relative(dir, p), readFileSync(p, 'utf8')]));
}

if (process.argv.includes('--check')) {
  const tmp = mkdtempSync(join(tmpdir(), 'civic-gen-'));
  try {
    generate(tmp);
    const fresh = snapshot(tmp);
    const committed = snapshot(genDir);
    const stale = [...new Set([...fresh.keys(), ...committed.keys()])].filter((f) => fresh.get(f) !== committed.get(f));
    if (stale.length > 0) {
      console.error(`protos/gen is stale; run \`npm run gen:protos\`. Differs: ${stale.join(', ')}`);
      process.exit(1);
    }
    console.log(`protos/gen is up to date (${fresh.size} files)`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
} else {
  rmSync(genDir, { recursive: true, force: true });
  execFileSync('mkdir', ['-p', genDir]);
  generate(genDir);
  console.log(`generated ${snapshot(genDir).size} files into protos/gen`);
}
