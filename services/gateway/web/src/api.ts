/** The REST API's answers, as far as the explorer reads them (the OpenAPI document at /v1/openapi.json has them whole). */

export interface Point {
  lat: number;
  lng: number;
}

export interface District {
  slug: string;
  name: string;
  level: string;
  roles: ('serving' | 'electing')[];
  valid_from: string | null;
  valid_to: string | null;
  source?: string;
  precision?: string;
  share?: number;
}

export interface DistrictsAnswer {
  date: string;
  data: District[];
  point?: Point;
  geocode?: { point: Point; precision: string; source: string; matched: string; uncertainty_radius_meters: number };
  ambiguous?: boolean;
}

export interface Provenance {
  slug: string;
  source: string;
  url: string | null;
  publisher: string | null;
  licence: string | null;
  retrieved_at: string | null;
  method: string | null;
}

export interface Candidacy {
  slug: string;
  person: string;
  party: string | null;
  is_incumbent: boolean | null;
  ballot_access: string | null;
  campaign_website: string | null;
  confidence: number;
  provenance: Provenance[];
  field_confidence: { field: string; confidence: number; provenance: string[] }[];
}

export interface RegionRef {
  slug: string;
  name: string;
  level: string;
}

export interface Contest {
  slug: string;
  name: string;
  office: string | null;
  date: string | null;
  type: string;
  level: string;
  region: RegionRef;
  seats: number;
  special: boolean;
  candidacies: Candidacy[];
  choices: { label: string; result: string }[];
}

export interface Ballot {
  point: Point;
  date: string;
  regions: RegionRef[];
  contests: Contest[];
  unresolved: { region: RegionRef; reason: string; contests: { slug: string; name: string; date: string | null }[] }[];
}

export interface Officeholder {
  person: string;
  office: string;
  level: string;
  region: string;
  party: string | null;
  term_start: string | null;
  term_end: string | null;
}

export interface ElectionDate {
  slug: string;
  name: string;
  date: string;
  type: string;
  state: string;
}

export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

export interface BoundaryFeature {
  type: 'Feature';
  properties: { slug: string; valid_from: string | null; valid_to: string | null; vertices: number };
  geometry: GeoJSON.Polygon | GeoJSON.MultiPolygon;
}

/** A refusal as the API words it (problem+json): the field to fix and why. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly field: string | undefined,
    detail: string,
  ) {
    super(detail);
  }
}

/** The REST API at `base`, called with the key `key()` returns (asked each call: the reader may paste a new one). */
export class Api {
  constructor(
    readonly base: string,
    private readonly key: () => string | null,
  ) {}

  async get<T>(path: string, params: Record<string, string | number | undefined> = {}): Promise<T> {
    const url = new URL(path, this.base);
    for (const [name, value] of Object.entries(params))
      if (value !== undefined) url.searchParams.set(name, String(value));
    const key = this.key();
    if (key === null || key === '') throw new ApiError(401, 'unauthenticated', 'key', 'Paste an API key first.');
    const res = await fetch(url, { headers: { Authorization: `Bearer ${key}`, Accept: 'application/json' } });
    const body: unknown = await res.json().catch(() => undefined);
    if (!res.ok) {
      const problem = (body ?? {}) as { type?: string; field?: string; detail?: string; title?: string };
      throw new ApiError(
        res.status,
        problem.type ?? 'error',
        problem.field,
        problem.detail ?? problem.title ?? `The API answered ${res.status}.`,
      );
    }
    return body as T;
  }

  /** Every page of a list, up to `maxPages` (a state's officeholders run to a few hundred). */
  async all<T>(path: string, params: Record<string, string | number | undefined>, maxPages = 5): Promise<T[]> {
    const out: T[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < maxPages; i += 1) {
      const page = await this.get<Page<T>>(path, { ...params, limit: 200, cursor });
      out.push(...page.data);
      if (page.next_cursor === null) break;
      cursor = page.next_cursor;
    }
    return out;
  }
}
