import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Request, Router } from 'express';

const require = createRequire(import.meta.url);
/** A file inside a package, found through its package.json (UMD builds are not in `exports`). */
const inPackage = (pkg: string, file: string) => join(dirname(require.resolve(`${pkg}/package.json`)), file);

/** Local copies of GraphiQL and React: the page loads nothing from a CDN. */
const ASSETS: Record<string, { file: string; type: string }> = {
  'react.js': { file: inPackage('react', 'umd/react.production.min.js'), type: 'text/javascript' },
  'react-dom.js': { file: inPackage('react-dom', 'umd/react-dom.production.min.js'), type: 'text/javascript' },
  'graphiql.js': { file: inPackage('graphiql', 'graphiql.min.js'), type: 'text/javascript' },
  'graphiql.css': { file: inPackage('graphiql', 'graphiql.min.css'), type: 'text/css' },
};

/**
 * The headers GraphiQL opens with: a placeholder for the key, in ASCII. A browser refuses to
 * send a header value outside ISO-8859-1, so an ellipsis here made GraphiQL's first request
 * fail with a stack trace instead of asking for a key.
 */
export const DEFAULT_HEADERS = { Authorization: 'Bearer PASTE_YOUR_KEY_HERE' };

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>civicgraph GraphQL</title>
<link rel="stylesheet" href="/graphql/assets/graphiql.css">
<style>html,body,#graphiql{height:100%;margin:0}</style>
</head>
<body>
<div id="graphiql">Loading GraphiQL…</div>
<script src="/graphql/assets/react.js"></script>
<script src="/graphql/assets/react-dom.js"></script>
<script src="/graphql/assets/graphiql.js"></script>
<script>
  const fetcher = GraphiQL.createFetcher({ url: '/graphql' });
  ReactDOM.createRoot(document.getElementById('graphiql')).render(
    React.createElement(GraphiQL, {
      fetcher,
      defaultHeaders: ${JSON.stringify(JSON.stringify(DEFAULT_HEADERS, null, 2))},
      defaultQuery: '{\\n  districtsAtPoint(lat: 39.7392, lng: -104.9903) {\\n    slug\\n    name\\n    level\\n    fips\\n    population\\n  }\\n}\\n',
      shouldPersistHeaders: true,
    }),
  );
</script>
</body>
</html>`;

/** True for a browser navigation (HTML preferred over JSON). */
export const GRAPHIQL_PAGE = PAGE;

export function wantsHtml(req: Request): boolean {
  return (
    req.method === 'GET' &&
    req.accepts(['application/json', 'application/graphql-response+json', 'text/html']) === 'text/html'
  );
}

/** GraphiQL at GET /graphql for browsers, with its assets under /graphql/assets. */
export function graphiql(router: Router): void {
  router.get('/graphql/assets/:name', (req, res, next) => {
    const asset = ASSETS[req.params.name];
    if (asset === undefined) return next();
    res.type(asset.type).setHeader('Cache-Control', 'public, max-age=86400');
    res.sendFile(asset.file);
  });
  router.get('/graphql', (req, res, next) => {
    if (!wantsHtml(req)) return next();
    res.type('text/html').setHeader('Cache-Control', 'no-cache');
    res.send(PAGE);
  });
}
