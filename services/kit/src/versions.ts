/**
 * API versions (`Civic-Version`). Dated versions pin response shapes within /v1; changes
 * within one are additive. Newest last.
 */
export const API_VERSIONS = ['2026-11-01'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];
export const LATEST_VERSION: ApiVersion = API_VERSIONS[API_VERSIONS.length - 1]!;

export function isApiVersion(v: string): v is ApiVersion {
  return (API_VERSIONS as readonly string[]).includes(v);
}
