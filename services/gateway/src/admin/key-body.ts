import { ENVIRONMENT_WORDS, InvalidParameterError, PLAN_WORDS } from '@civicgraph/kit';
import type { CreateKeyRequest, Entitlements, RotateKeyRequest } from '@civicgraph/protos/civic/auth/v1/auth';

/**
 * Request bodies of the admin key API, checked field by field: an unknown field, a wrong
 * type or an unknown word is a 400 naming the field (its JSON path). Plan rules (contact
 * only on build and enterprise, the enterprise limit, known states and tiers) are the auth
 * service's, which names the field the same way.
 */
type Json = Record<string, unknown>;

const CREATE_FIELDS = ['environment', 'plan', 'entitlements', 'rate_limit_per_minute', 'pinned_version', 'label'];
const ENTITLEMENT_FIELDS = ['contact', 'geography', 'states', 'tiers'];

export function createKeyRequest(body: unknown): CreateKeyRequest {
  const o = object(body, 'body');
  onlyFields(o, CREATE_FIELDS, '');
  const entitlements = o['entitlements'] === undefined ? undefined : entitlementsOf(o['entitlements']);
  const rate = int32(o, 'rate_limit_per_minute');
  return {
    environment: word(o, 'environment', ENVIRONMENT_WORDS, true),
    plan: word(o, 'plan', PLAN_WORDS, true),
    label: string(o, 'label') ?? '',
    pinnedVersion: string(o, 'pinned_version') ?? '',
    ...(entitlements === undefined ? {} : { entitlements }),
    ...(rate === undefined ? {} : { rateLimitPerMinute: rate as number }),
  };
}

export function rotateKeyRequest(keyId: string, body: unknown): RotateKeyRequest {
  const o = body === undefined ? {} : object(body, 'body');
  onlyFields(o, ['grace_seconds'], '');
  const grace = int32(o, 'grace_seconds');
  return { keyId, ...(grace === undefined ? {} : { graceSeconds: grace as number }) };
}

/** Given entitlements are taken as a whole: omitted switches are off, omitted scopes unrestricted. */
function entitlementsOf(value: unknown): Entitlements {
  const o = object(value, 'entitlements');
  onlyFields(o, ENTITLEMENT_FIELDS, 'entitlements.');
  return {
    contact: boolean(o, 'contact', 'entitlements.') ?? false,
    geography: boolean(o, 'geography', 'entitlements.') ?? true,
    states: strings(o, 'states', 'entitlements.'),
    tiers: strings(o, 'tiers', 'entitlements.'),
  };
}

/** Largest value the auth service's int32 fields hold. */
const INT32_MAX = 2 ** 31 - 1;

function int32(o: Json, field: string): number | undefined {
  const v = o[field];
  if (v !== undefined && (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > INT32_MAX))
    throw wrong(field, `an integer from 0 to ${INT32_MAX}`);
  return v as number | undefined;
}

function object(value: unknown, field: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw wrong(field, 'a JSON object');
  return value as Json;
}

function onlyFields(o: Json, known: readonly string[], prefix: string): void {
  for (const k of Object.keys(o)) {
    if (!known.includes(k))
      throw new InvalidParameterError(
        `${prefix}${k.slice(0, 60)}`,
        `Unknown field ${JSON.stringify(prefix + k.slice(0, 60))}; known: ${known.join(', ')}.`,
      );
  }
}

function word<T>(o: Json, field: string, table: Readonly<Record<string, T>>, required: boolean): T {
  const v = o[field];
  if (v === undefined && required)
    throw new InvalidParameterError(field, `${field} is required: one of ${Object.keys(table).join(', ')}.`);
  const found = typeof v === 'string' ? table[v] : undefined;
  if (found === undefined) throw wrong(field, `one of ${Object.keys(table).join(', ')}`);
  return found;
}

function string(o: Json, field: string): string | undefined {
  const v = o[field];
  if (v !== undefined && typeof v !== 'string') throw wrong(field, 'a string');
  return v;
}

function boolean(o: Json, field: string, prefix: string): boolean | undefined {
  const v = o[field];
  if (v !== undefined && typeof v !== 'boolean') throw wrong(prefix + field, 'true or false');
  return v;
}

function strings(o: Json, field: string, prefix: string): string[] {
  const v = o[field];
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.length > 100 || !v.every((s) => typeof s === 'string' && s.length <= 20))
    throw wrong(prefix + field, 'an array of at most 100 short strings');
  return v as string[];
}

function wrong(field: string, what: string): InvalidParameterError {
  return new InvalidParameterError(field, `${field} must be ${what}.`);
}
