import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Response, Router } from 'express';
import { NotFoundError } from '@civicgraph/kit';
import { EXPLORE_PAGE } from './page.js';

const require = createRequire(import.meta.url);

/**
 * The browser bundles `npm run build` writes (services/gateway/web/build.mjs). The same
 * path from src/explore (tests) and dist/explore (the build): both sit two folders under
 * the package.
 */
export const WEB_DIST = fileURLToPath(new URL('../../dist/web/', import.meta.url));

/** us-atlas's nation, states and counties (TopoJSON, 1:10M): the map's base layer, served from here, not a tile host. */
const ATLAS = dirname(require.resolve('us-atlas/package.json'));

/** Every file the page and the widget load, by the name they load it under. */
const ASSETS: Record<string, { file: string; type: string }> = {
  'explore.js': { file: join(WEB_DIST, 'explore.js'), type: 'text/javascript' },
  'explore.css': { file: join(WEB_DIST, 'explore.css'), type: 'text/css' },
  'states.json': { file: join(ATLAS, 'states-10m.json'), type: 'application/json' },
  'counties.json': { file: join(ATLAS, 'counties-10m.json'), type: 'application/json' },
};

/**
 * The page's policy: everything from this origin, nothing inline, no frames. The page
 * talks only to this gateway's API; map tiles, fonts and scripts all come from here.
 */
const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * GET /explore (the ballot explorer), its assets under /explore/assets, and
 * /explore/widget.js (the embeddable ballot widget). Public, like /docs: the page asks the
 * reader for a key and sends it to the API itself. Assets answer any origin, since the
 * widget loads the base map from here while embedded elsewhere.
 */
export function exploreRoutes(router: Router): void {
  router.get('/explore', (_req, res) => {
    res.type('text/html').setHeader('Cache-Control', 'no-cache');
    res.setHeader('Content-Security-Policy', PAGE_CSP);
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.send(EXPLORE_PAGE);
  });
  router.get('/explore/assets/:name', (req, res, next) => {
    const asset = ASSETS[req.params.name];
    if (asset === undefined) return next(new NotFoundError(`No explorer asset ${req.params.name.slice(0, 80)}.`));
    sendAsset(res, asset.file, asset.type, next);
  });
  router.get('/explore/widget.js', (_req, res, next) => {
    sendAsset(res, join(WEB_DIST, 'widget.js'), 'text/javascript', next);
  });
}

function sendAsset(res: Response, file: string, type: string, next: (err?: unknown) => void): void {
  // A checkout built with `tsc -b` alone has no bundles: say what to run, not a bare 404.
  if (!existsSync(file))
    return next(new NotFoundError('The explorer is not built in this checkout; run npm run build.'));
  res.type(type);
  res.setHeader('Cache-Control', 'public, max-age=300');
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.sendFile(file);
}
