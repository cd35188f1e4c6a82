import { LATEST_VERSION } from '@civicgraph/kit';
import { PROBLEM_TYPE_NAMES, PROBLEM_TYPES, problemStatus } from '../resources/problem.js';

/** The document-level text of /v1/openapi.json: its info object plus the tags' descriptions. */
export interface DocumentInfo {
  title: string;
  /** The newest `Civic-Version`: the shapes this document describes. */
  version: string;
  /** CommonMark introduction (authentication, versions, paging, caching, errors). */
  description: string;
  /** Description of each tag, by name; tags without one are listed bare. */
  tags?: Readonly<Record<string, string>>;
}

/** The "Errors" section: every problem type once, with its status and meaning. */
export function problemTypesSection(): string {
  const rows = PROBLEM_TYPE_NAMES.map(
    (type) => `| \`${type}\` | ${problemStatus(type).status} | ${PROBLEM_TYPES[type].description} |`,
  );
  return [
    '## Errors',
    'Every error is `application/problem+json` (RFC 9457): `{type, title, status, detail, field, request_id}`. Branch on `type`, a stable word; `field` names the parameter, header or entitlement to blame.',
    '',
    '| type | status | meaning |',
    '|---|---|---|',
    ...rows,
  ].join('\n');
}

const INTRODUCTION = `US election data as a graph: districts at a point or an address, region boundaries, the full ballot for a point on a date, contests, candidacies with their sources and confidence, officeholders, certified results and election dates.

## Authentication
Send your key as \`Authorization: Bearer cg_live_…\` (or \`cg_test_…\`). What a key may see follows its plan and entitlements, named on every response in \`Civic-Entitlements\`: \`geography\` (boundaries, point and address lookups), \`contact\` (campaign emails, phones and team; absent from responses without it) and \`jurisdictions\` (the states and tiers in scope; anything outside them does not exist for the key).

## Versions
Paths start with \`/v1\`. \`Civic-Version: YYYY-MM-DD\` pins response shapes; without it the key's pinned version applies, else the newest (this document describes ${LATEST_VERSION}). The version served is echoed in \`Civic-Version\`; an unknown one is a 400 \`unsupported_version\`.

## Lists and paging
Lists answer \`{data: [...], next_cursor}\`. Pass \`next_cursor\` back as \`cursor\` with the same filters for the next page; it is null on the last page. \`limit\` is 1 to 200 (default 50).

## Confidence
Every candidacy and each of its fields carries a confidence from 0 to 1 and the provenance records behind it; \`min_confidence\` leaves out what scores lower.

## Caching and rate limits
Responses carry a strong \`ETag\`; send it back in \`If-None-Match\` to get a \`304\` that does not count against your rate limit. Geographic answers are \`Cache-Control: private, max-age=86400\`, candidacy-bearing ones \`private, max-age=300\`. \`Civic-RateLimit-Limit\`, \`-Remaining\` and \`-Reset\` (unix seconds) are on every response; a \`429\` carries \`Retry-After\`.

${problemTypesSection()}`;

/** civicgraph's document info. */
export const API_INFO: DocumentInfo = {
  title: 'civicgraph API',
  version: LATEST_VERSION,
  description: INTRODUCTION,
  tags: {
    Geography: 'Districts at a point or an address, region metadata and boundaries. Needs the `geography` entitlement.',
    Ballot: 'Everything on the ballot at a point on a date.',
    Contests: 'Contests (races) and their candidacies.',
    Candidacies: 'People running, with provenance and per-field confidence.',
    Officeholders: 'Who holds an office, for which term.',
    Results: 'Certified results.',
    Elections: 'Election days.',
    Meta: 'The service itself.',
  },
};
