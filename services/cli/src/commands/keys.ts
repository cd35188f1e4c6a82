import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Environment, Plan, type CreateKeyRequest, type Entitlements, type KeyRecord } from '@civicgraph/protos/civic/auth/v1/auth';
import { KeyService, LmdbKeyStore } from '@civicgraph/auth';
import { InvalidParameterError } from '@civicgraph/kit';
import type { CliConfig } from '../config.js';

const ENVIRONMENTS: Record<string, Environment> = { test: Environment.ENVIRONMENT_TEST, live: Environment.ENVIRONMENT_LIVE };
const PLANS: Record<string, Plan> = { explore: Plan.PLAN_EXPLORE, build: Plan.PLAN_BUILD, enterprise: Plan.PLAN_ENTERPRISE };
const ENTITLEMENT_FLAGS = ['contact', 'geography'] as const;

function choice<T>(table: Record<string, T>, flag: string, value: string): T {
  const v = table[value];
  if (v === undefined) throw new InvalidParameterError(flag, `--${flag} must be one of ${Object.keys(table).join(', ')}, got "${value}".`);
  return v;
}

function csv(value: string | undefined): string[] {
  return value === undefined ? [] : value.split(',').map((s) => s.trim().toLowerCase()).filter((s) => s !== '');
}

/** `--entitlements contact,geography` lists the boolean entitlements to turn on; others are off. */
function entitlements(flags: { entitlements?: string; states?: string; tiers?: string }): Entitlements | undefined {
  const named = flags.entitlements === undefined ? undefined : csv(flags.entitlements);
  for (const n of named ?? []) {
    if (!(ENTITLEMENT_FLAGS as readonly string[]).includes(n)) {
      throw new InvalidParameterError('entitlements', `Unknown entitlement "${n}"; use ${ENTITLEMENT_FLAGS.join(', ')} (scope with --states/--tiers).`);
    }
  }
  if (named === undefined && flags.states === undefined && flags.tiers === undefined) return undefined;
  return {
    contact: named?.includes('contact') ?? false,
    geography: named?.includes('geography') ?? true,
    states: csv(flags.states),
    tiers: csv(flags.tiers),
  };
}

export function createRequest(args: string[]): { request: CreateKeyRequest; json: boolean } {
  const { values } = parseArgs({
    args,
    options: {
      env: { type: 'string', default: 'test' },
      plan: { type: 'string', default: 'explore' },
      entitlements: { type: 'string' },
      states: { type: 'string' },
      tiers: { type: 'string' },
      'rate-limit': { type: 'string' },
      label: { type: 'string', default: '' },
      version: { type: 'string', default: '' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const ents = entitlements(values);
  const rate = values['rate-limit'];
  if (rate !== undefined && !/^\d+$/.test(rate)) throw new InvalidParameterError('rate-limit', '--rate-limit must be a whole number.');
  const request: CreateKeyRequest = {
    environment: choice(ENVIRONMENTS, 'env', values.env),
    plan: choice(PLANS, 'plan', values.plan),
    label: values.label,
    pinnedVersion: values.version,
    ...(ents === undefined ? {} : { entitlements: ents }),
    ...(rate === undefined ? {} : { rateLimitPerMinute: Number(rate) }),
  };
  return { request, json: values.json };
}

/** A key record as the CLI prints it (snake_case, like the REST layer). */
export function recordView(r: KeyRecord) {
  const p = r.principal;
  return {
    key_id: r.keyId,
    key_prefix: r.keyPrefix,
    label: r.label,
    environment: p === undefined ? null : Object.keys(ENVIRONMENTS).find((k) => ENVIRONMENTS[k] === p.environment) ?? null,
    plan: p === undefined ? null : Object.keys(PLANS).find((k) => PLANS[k] === p.plan) ?? null,
    entitlements: p?.entitlements ?? null,
    rate_limit_per_minute: p?.rateLimitPerMinute ?? null,
    pinned_version: p?.pinnedVersion ?? null,
    created_at: r.createdAt,
    revoked_at: r.revokedAt === '' ? null : r.revokedAt,
  };
}

/** Opens the same key store a running `civicgraph up` uses, runs `fn`, closes it. */
async function withKeys<T>(config: CliConfig, fn: (keys: KeyService) => Promise<T>): Promise<T> {
  const store = LmdbKeyStore.open({ path: join(config.dataDir, 'auth') });
  try {
    return await fn(new KeyService({ store }));
  } finally {
    await store.close();
  }
}

/** `civicgraph keys create|revoke|list …`; returns what to print. */
export async function keys(config: CliConfig, args: string[]): Promise<string> {
  const [sub, ...rest] = args;
  if (sub === 'create') {
    const { request, json } = createRequest(rest);
    const issued = await withKeys(config, (k) => k.create(request));
    if (json) return JSON.stringify({ key: issued.key, ...recordView(issued.record) }, null, 2);
    return `${issued.key}\n(key id ${issued.record.keyId}; the key is shown once and only its hash is stored)`;
  }
  if (sub === 'revoke') {
    const id = rest[0];
    if (id === undefined) throw new InvalidParameterError('key-id', 'usage: civicgraph keys revoke <key-id>');
    const record = await withKeys(config, (k) => k.revoke(id));
    return JSON.stringify(recordView(record), null, 2);
  }
  if (sub === 'list') {
    const records = await withKeys(config, (k) => k.list());
    return JSON.stringify(records.map(recordView), null, 2);
  }
  throw new InvalidParameterError('command', 'usage: civicgraph keys create|revoke|list');
}
