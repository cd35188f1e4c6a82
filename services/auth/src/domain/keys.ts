import { Environment } from '@civicgraph/protos/civic/auth/v1/auth';
import { notBase62, randomBase62, type RandomSource } from '@civicgraph/kit';

/** Random base62 characters in a key: 40 × log2(62) ≈ 238 bits of entropy. */
export const KEY_SECRET_LENGTH = 40;
/** Random base62 characters in a key id (`key_<16>`): ≈ 95 bits, collisions negligible. */
export const KEY_ID_LENGTH = 16;
/** Characters of a key shown in listings (`cg_test_AbCd…`): the environment and 4 random. */
export const DISPLAY_PREFIX_LENGTH = 12;

/** The environment word in `cg_<env>_…`. Both words are four letters, so keys are fixed-length. */
export type EnvironmentWord = 'test' | 'live';

const WORDS: ReadonlyMap<Environment, EnvironmentWord> = new Map([
  [Environment.ENVIRONMENT_TEST, 'test'],
  [Environment.ENVIRONMENT_LIVE, 'live'],
]);

/** Length of every well-formed key: `cg_` + 4 + `_` + 40. */
export const KEY_LENGTH = 'cg_'.length + 4 + 1 + KEY_SECRET_LENGTH;

/** A key whose shape is valid; says nothing about whether it was ever issued. */
export interface ParsedKey {
  key: string;
  environment: Environment;
}

/** The word for an environment, or undefined for UNSPECIFIED/UNRECOGNIZED. */
export function environmentWord(env: Environment): EnvironmentWord | undefined {
  return WORDS.get(env);
}

/** A fresh secret key `cg_<env>_<40 base62>`. Throws for an environment without a word. */
export function generateKey(env: Environment, random?: RandomSource): string {
  const word = environmentWord(env);
  if (word === undefined) throw new RangeError(`no key prefix for environment ${env}`);
  return `cg_${word}_${randomBase62(KEY_SECRET_LENGTH, random)}`;
}

/** A fresh key id `key_<16 base62>`; safe to log and to show. */
export function generateKeyId(random?: RandomSource): string {
  return `key_${randomBase62(KEY_ID_LENGTH, random)}`;
}

/** The listing form of a key: its first 12 characters and an ellipsis. */
export function displayPrefix(key: string): string {
  return `${key.slice(0, DISPLAY_PREFIX_LENGTH)}…`;
}

/**
 * The key's environment if `raw` has the shape of a key (prefix, environment word, length,
 * base62 body), else undefined. The body is scanned to its end with no early exit, so the
 * time taken does not reveal where a malformed key first goes wrong. Whether a well-formed
 * key exists is decided by looking up its hash, never by comparing secrets.
 */
export function parseKey(raw: string): ParsedKey | undefined {
  if (raw.length !== KEY_LENGTH) return undefined;
  const environment = environmentOfPrefix(raw.slice(0, 8));
  const bad = bodyDefects(raw, 8);
  return environment !== undefined && bad === 0 ? { key: raw, environment } : undefined;
}

function environmentOfPrefix(prefix: string): Environment | undefined {
  if (prefix === 'cg_test_') return Environment.ENVIRONMENT_TEST;
  if (prefix === 'cg_live_') return Environment.ENVIRONMENT_LIVE;
  return undefined;
}

/** OR of "not base62" over raw[from..], with no early exit: 0 when every character is base62. */
function bodyDefects(raw: string, from: number): number {
  let bad = 0;
  for (let i = from; i < raw.length; i++) bad |= notBase62(raw.charCodeAt(i));
  return bad;
}
