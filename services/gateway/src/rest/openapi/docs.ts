import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { NotFoundError } from '@civicgraph/kit';
import express, { type Router } from 'express';

const require = createRequire(import.meta.url);
/** swagger-ui-dist's folder: its built bundle and styles, served locally (no CDN). */
const SWAGGER_UI_DIR = dirname(require.resolve('swagger-ui-dist/package.json'));
/** The files the page loads (and their source maps); the package's demo page and initializer stay unserved. */
const PAGE_ASSET =
  /^\/(swagger-ui\.css|swagger-ui-bundle\.js|swagger-ui-standalone-preset\.js|favicon-(16x16|32x32)\.png)(\.map)?$/;

/** Where the docs page loads its assets from. */
export const DOCS_ASSETS = '/docs/assets';

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>civicgraph API reference</title>
<link rel="stylesheet" href="${DOCS_ASSETS}/swagger-ui.css">
<link rel="icon" type="image/png" href="${DOCS_ASSETS}/favicon-32x32.png" sizes="32x32">
<style>body{margin:0}</style>
</head>
<body>
<div id="swagger-ui"></div>
<script src="${DOCS_ASSETS}/swagger-ui-bundle.js"></script>
<script src="${DOCS_ASSETS}/swagger-ui-standalone-preset.js"></script>
<script>
  window.ui = SwaggerUIBundle({
    url: '/v1/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    persistAuthorization: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'BaseLayout',
  });
</script>
</body>
</html>`;

/** GET /docs: the API reference (Swagger UI over /v1/openapi.json), its assets under /docs/assets. */
export function docsRoutes(router: Router): void {
  router.use(DOCS_ASSETS, (req, _res, next) =>
    next(PAGE_ASSET.test(req.path) ? undefined : new NotFoundError(`No docs asset ${req.path.slice(0, 80)}.`)),
  );
  router.use(DOCS_ASSETS, express.static(SWAGGER_UI_DIR, { index: false, maxAge: '1d' }));
  router.get('/docs', (_req, res) => {
    res.type('text/html').setHeader('Cache-Control', 'no-cache');
    res.send(PAGE);
  });
}
