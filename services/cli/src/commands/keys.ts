import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { CreateKeyRequest, Entitlements, KeyRecord } from '@civicgraph/protos/civic/auth/v1/auth';
import { openKeyService, type KeyService } from '@civicgraph/auth';
import {
  createLogger,
  ENVIRONMENT_WORDS,
  InvalidParameterError,
  keyRecordView,
  openBus,
  PLAN_WORDS,
} from '@civicgraph/kit';
import type { CliConfig } from '../config.js';

const ENVIRONMENTS = ENVIRONMENT_WORDS;
const PLANS = PLAN_WORDS;
const ENTITLEMENT_FLAGS = ['contact', 'geography'] as const;

function choice<T>(table: Readonly<Record<string, T>>, flag: string, value: string): T {
  const v = table[value];
  if (v === undefined)
    throw new InvalidParameterError(flag, `--${flag} must be one of ${Object.keys(table).join(', ')}, got "${value}".`);
  return v;
}

function csv(value: string | undefined): string[] {
  return value === undefined
    ? []
    : value
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter((s) => s !== '');
}

/** `--entitlements contact,geography` lists the boolean entitlements to turn on; others are off. */
function entitlements(flags: { entitlements?: string; states?: string; tiers?: string }): Entitlements | undefined {
  const named = flags.entitlements === undefined ? undefined : csv(flags.entitlements);
  for (const n of named ?? []) {
    if (!(ENTITLEMENT_FLAGS as readonly string[]).includes(n)) {
      throw new InvalidParameterError(
        'entitlements',
        `Unknown entitlement "${n}"; use ${ENTITLEMENT_FLAGS.join(', ')} (scope with --states/--tiers).`,
      );
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
  if (rate !== undefined && !/^\d+$/.test(rate))
    throw new InvalidParameterError('rate-limit', '--rate-limit must be a whole number.');
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

/** Opens the same key store (and pepper) a running `civicgraph up` uses, runs `fn`, closes it. */
async function withKeys<T>(config: CliConfig, fn: (keys: KeyService) => Promise<T>): Promise<T> {
  // With NATS, revocations and rotations are announced to every gateway at once; without
  // it, a running gateway sees them when its principal cache entry expires (5 s).
  const bus =
    config.natsUrl === undefined
      ? undefined
      : await openBus(config.natsUrl, 'civicgraph-keys', createLogger('keys', 'warn'));
  const { keys, close } = openKeyService({ storePath: join(config.dataDir, 'auth'), pepper: config.keyPepper }, bus);
  try {
    return await fn(keys);
  } finally {
    await close();
    await bus?.close();
  }
}

const show = (r: KeyRecord) => JSON.stringify(keyRecordView(r), null, 2);

/** `civicgraph keys create|list|show|rotate|revoke …`; returns what to print. */
export async function keys(config: CliConfig, args: string[]): Promise<string> {
  const [sub, ...rest] = args;
  if (sub === 'create') {
    const { request, json } = createRequest(rest);
    const issued = await withKeys(config, (k) => k.create(request));
    if (json) return JSON.stringify({ key: issued.key, ...keyRecordView(issued.record) }, null, 2);
    return `${issued.key}\n(key id ${issued.record.keyId}; the key is shown once and only its digests are stored)`;
  }
  if (sub === 'list')
    return JSON.stringify(
      (await withKeys(config, (k) => k.list())).map((r) => keyRecordView(r)),
      null,
      2,
    );
  const id = rest[0];
  if (sub === 'show' || sub === 'revoke') {
    if (id === undefined) throw new InvalidParameterError('key-id', `usage: civicgraph keys ${sub} <key-id>`);
    return show(await withKeys(config, (k) => (sub === 'show' ? k.get(id) : k.revoke(id))));
  }
  if (sub === 'rotate') {
    const { values, positionals } = parseArgs({
      args: rest,
      options: { 'grace-seconds': { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
    const grace = values['grace-seconds'];
    if (positionals.length !== 1)
      throw new InvalidParameterError('key-id', 'usage: civicgraph keys rotate <key-id> [--grace-seconds N]');
    if (grace !== undefined && !/^\d+$/.test(grace))
      throw new InvalidParameterError('grace-seconds', '--grace-seconds must be a whole number.');
    const issued = await withKeys(config, (k) =>
      k.rotate({ keyId: positionals[0]!, ...(grace === undefined ? {} : { graceSeconds: Number(grace) }) }),
    );
    return `${issued.key}\n(key id ${issued.record.keyId}; the previous key works until ${issued.record.previousKeyExpiresAt})`;
  }
  throw new InvalidParameterError('command', 'usage: civicgraph keys create|list|show|rotate|revoke');
}
