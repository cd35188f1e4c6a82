/** HTTP helpers for suites that drive a civicgraph over HTTP, whichever way it was started. */

/** GET with a bearer key; returns status, headers and the parsed body (if any). */
export async function get(url: string, key?: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    headers: { ...(key === undefined ? {} : { Authorization: `Bearer ${key}` }), ...headers },
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === '' ? undefined : (JSON.parse(text) as any), text };
}

/** Any method with a bearer key and a JSON body (a string is sent as it is); returns status, headers and the parsed body (if any). */
export async function send(
  url: string,
  method: string,
  key: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(url, {
    method,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === '' ? undefined : (JSON.parse(text) as any) };
}

/** POST a GraphQL query. */
export async function graphql(url: string, key: string, query: string, variables: Record<string, unknown> = {}) {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

export const DENVER = { lat: 39.7392, lng: -104.9903 };
