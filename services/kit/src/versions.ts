import { isIsoDate } from './dates.js';

/**
 * API versions (`Civic-Version`). Dated versions pin response shapes within /v1; changes
 * within one are additive. Newest last.
 */
export const API_VERSIONS = ['2026-11-01'] as const;
export type ApiVersion = string;
export const LATEST_VERSION: ApiVersion = API_VERSIONS[API_VERSIONS.length - 1]!;

/** Whether `v` is one of the built-in versions (what a key may be pinned to). */
export function isApiVersion(v: string): boolean {
  return (API_VERSIONS as readonly string[]).includes(v);
}

/**
 * Turns a response of version V into the shape of the version before V, for one endpoint
 * (its operation id, e.g. `getBallot`). Bodies are plain JSON values; return a new value.
 */
export type Downgrade = (endpoint: string, body: unknown) => unknown;

/**
 * The dated versions and how to serve each (Stripe's model): every response is built in
 * the newest shape, then walked back through the downgrade of each newer version, newest
 * first, until it has the shape of the version the caller asked for.
 */
export class VersionRegistry {
  private readonly versions: { version: string; downgrade?: Downgrade }[];

  constructor(base: readonly string[] = API_VERSIONS) {
    this.versions = base.map((version) => ({ version }));
  }

  get known(): readonly string[] {
    return this.versions.map((v) => v.version);
  }

  get latest(): string {
    return this.versions[this.versions.length - 1]!.version;
  }

  has(version: string): boolean {
    return this.versions.some((v) => v.version === version);
  }

  /** True when `version` is the newest: `shape` returns bodies for it unchanged. */
  isLatest(version: string): boolean {
    return version === this.latest;
  }

  /** Adds a version newer than every known one; `downgrade` maps its shapes to the previous version's. */
  register(version: string, downgrade: Downgrade): void {
    if (!isIsoDate(version)) throw new RangeError(`A version is a date written YYYY-MM-DD, got "${version}".`);
    if (version <= this.latest) throw new RangeError(`Version ${version} must be newer than ${this.latest}.`);
    this.versions.push({ version, downgrade });
  }

  /** `body` (newest shape) in the shape of `version` for `endpoint`. */
  shape(version: string, endpoint: string, body: unknown): unknown {
    let out = body;
    for (let i = this.versions.length - 1; i >= 0 && this.versions[i]!.version > version; i--) {
      out = this.versions[i]!.downgrade!(endpoint, out);
    }
    return out;
  }
}
