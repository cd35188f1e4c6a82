import { InvalidParameterError } from '@civicgraph/kit';
import type { RequestHandler } from 'express';
import type { Endpoint } from './endpoint.js';

/**
 * Express decodes path parameters itself and fails a malformed percent-escape (`/v1/contests/%`)
 * with a bare URIError. This checks the raw path against the endpoints' templates first,
 * so the refusal names the parameter as every other bad input does. Mounted on `prefixes`
 * (what precedes the templates' first parameter), so other requests never enter it.
 */
export function pathGuard(endpoints: readonly Endpoint[]): { prefixes: string[]; handler: RequestHandler } {
  const templated = endpoints.filter((e) => e.path.includes('{'));
  const templates = templated.map((e) => e.path.split('/'));
  const prefixes = [...new Set(templated.map((e) => e.path.slice(0, e.path.indexOf('/{'))))];
  const handler: RequestHandler = (req, _res, next) => {
    // Inside the mount, req.path is what follows the prefix.
    const path = `${req.baseUrl}${req.path}`;
    if (!path.includes('%')) return next(); // only a percent-escape can be malformed
    const segments = path.split('/');
    for (const t of templates) {
      if (t.length !== segments.length || !t.every((part, i) => part.startsWith('{') || part === segments[i])) continue;
      for (let i = 0; i < t.length; i++) {
        if (!t[i]!.startsWith('{')) continue;
        const name = t[i]!.slice(1, -1);
        try {
          decodeURIComponent(segments[i]!);
        } catch {
          return next(new InvalidParameterError(name, `${name} holds a malformed percent-escape.`));
        }
      }
    }
    next();
  };
  return { prefixes, handler };
}
