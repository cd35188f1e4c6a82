import { describe, expect, it } from 'vitest';
import { DEFAULT_HEADERS, GRAPHIQL_PAGE } from './graphiql.js';

describe('the GraphiQL page', () => {
  it('opens with header values a browser can send (ISO-8859-1), asking for the key', () => {
    for (const value of Object.values(DEFAULT_HEADERS)) expect(value).toMatch(/^[\x20-\x7e]*$/);
    expect(() => new Headers(DEFAULT_HEADERS)).not.toThrow();
    expect(GRAPHIQL_PAGE).toContain(JSON.stringify(JSON.stringify(DEFAULT_HEADERS, null, 2)));
    expect(GRAPHIQL_PAGE).not.toContain('cg_test_…');
  });
});
