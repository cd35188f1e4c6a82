import { InvalidParameterError } from '@civicgraph/kit';
import type { CreateKeyRequest, Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { environmentWord } from './keys.js';
import { assertPlan, resolveEntitlements, resolvePinnedVersion, resolveRateLimit } from './plans.js';

/** Longest label accepted, in characters; labels are shown in listings, not parsed. */
export const MAX_LABEL_LENGTH = 200;

/** The validated terms of a new key: everything of its principal except the id. */
export type KeyTerms = Omit<Principal, 'keyId'>;

/**
 * Checks a CreateKeyRequest against the plan rules and resolves its defaults. Each
 * violation is an InvalidParameterError naming the request field.
 */
export function keyTerms(req: CreateKeyRequest): KeyTerms {
  if (environmentWord(req.environment) === undefined) {
    throw new InvalidParameterError('environment', 'environment must be test or live.');
  }
  assertPlan(req.plan);
  return {
    environment: req.environment,
    plan: req.plan,
    entitlements: resolveEntitlements(req.plan, req.entitlements),
    pinnedVersion: resolvePinnedVersion(req.pinnedVersion),
    rateLimitPerMinute: resolveRateLimit(req.plan, req.rateLimitPerMinute),
  };
}

/** The label trimmed; longer than MAX_LABEL_LENGTH is an error naming `label`. */
export function normaliseLabel(label: string): string {
  const trimmed = label.trim();
  if (trimmed.length > MAX_LABEL_LENGTH) {
    throw new InvalidParameterError('label', `label must be at most ${MAX_LABEL_LENGTH} characters.`);
  }
  return trimmed;
}
