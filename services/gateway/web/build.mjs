#!/usr/bin/env node
// Bundles the browser code of /explore and the widget (src/) into ../dist/web, which the
// gateway serves: run by `npm run build` after `tsc -b`, so `npm start` and `npm test`
// always serve what the sources say. About 0.1 s; no separate command to remember.
//
//   node services/gateway/web/build.mjs
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const outdir = here('../dist/web');
const common = {
  bundle: true,
  minify: true,
  target: ['chrome109', 'firefox115', 'safari16'],
  legalComments: 'eof',
  logLevel: 'warning',
};

export async function buildWeb() {
  await Promise.all([
    // The page: an ES module and a stylesheet it links.
    build({ ...common, entryPoints: { explore: here('src/explore.ts') }, format: 'esm', outdir }),
    build({ ...common, entryPoints: { explore: here('src/styles.css') }, outdir }),
    // The widget: one classic script (a host page adds a plain <script src>), styles inside.
    build({
      ...common,
      entryPoints: { widget: here('src/widget.ts') },
      format: 'iife',
      outdir,
      loader: { '.css': 'text' },
    }),
  ]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildWeb();
