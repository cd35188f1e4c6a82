import { Redis } from 'ioredis';
import { createLogger, type Logger } from '../log.js';
import { MemoryRateLimiter, type RateDecision, type RateLimiter } from './rate-limiter.js';

/** Options for {@link RedisRateLimiter}. */
export interface RedisRateLimiterOptions {
  /** e.g. `redis://127.0.0.1:6379`. */
  url: string;
  /** Prepended to every key: `<prefix><bucket>:<minute>`. Default `civic:rl:`. */
  keyPrefix?: string;
  /** A command unanswered after this many ms counts as an outage. Default 100. */
  commandTimeoutMs?: number;
  /** TCP connect timeout, and how long {@link RedisRateLimiter.connect} waits. Default 1000. */
  connectTimeoutMs?: number;
  /** Where outage and recovery are reported. Default a `rate-limit` logger. */
  log?: Logger;
}

/** Same fixed calendar minute as MemoryRateLimiter, so both adapters agree on windows. */
const WINDOW_MS = 60_000;
/** Keys outlive their window by this much, covering clock skew between gateways. */
const EXPIRY_MARGIN_MS = 60_000;

/**
 * KEYS[1] the window's counter; ARGV[1] limit; ARGV[2] TTL in ms. Counts one request only
 * while under the limit, so refused requests never inflate the counter.
 * Returns { count after this call, 1 if counted else 0 }.
 */
const CONSUME_LUA = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used < tonumber(ARGV[1]) then
  used = redis.call('INCR', KEYS[1])
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return { used, 1 }
end
return { used, 0 }
`;

type ScriptedRedis = Redis & {
  civicRateConsume(key: string, limit: number, ttlMs: number): Promise<[number, number]>;
};

/**
 * RateLimiter shared by every gateway replica through Redis: `consume` is one atomic
 * round trip (a Lua script), `peek` one GET.
 *
 * Degraded mode: when Redis is unreachable, or a command fails or outlasts
 * `commandTimeoutMs`, the answer comes from an in-process MemoryRateLimiter instead of an
 * error, so each gateway enforces the limit on its own (a key may then get up to
 * limit × replicas per minute). One warning is logged per outage; `shared` reports the
 * mode for readiness probes; the limiter returns to Redis as soon as it answers again.
 * A consume that timed out may still be counted by Redis later: it errs towards limiting.
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly redis: ScriptedRedis;
  private readonly fallback = new MemoryRateLimiter();
  private readonly prefix: string;
  private readonly connectTimeoutMs: number;
  private readonly log: Logger;
  private up = false;
  private inOutage = false;
  private closing = false;

  constructor(options: RedisRateLimiterOptions) {
    this.prefix = options.keyPrefix ?? 'civic:rl:';
    this.connectTimeoutMs = options.connectTimeoutMs ?? 1000;
    this.log = options.log ?? createLogger('rate-limit');
    this.redis = new Redis(options.url, {
      commandTimeout: options.commandTimeoutMs ?? 100,
      connectTimeout: this.connectTimeoutMs,
      // Fail fast while disconnected instead of queueing: the fallback answers meanwhile,
      // and a consume is never replayed on reconnect (that would count it twice).
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: (times) => Math.min(times * 100, 2000),
    }) as ScriptedRedis;
    this.redis.defineCommand('civicRateConsume', { numberOfKeys: 1, lua: CONSUME_LUA });
    this.redis.on('ready', () => this.markUp());
    this.redis.on('error', (err: Error) => this.markDown(err));
    this.redis.on('close', () => this.markDown(new Error('connection closed')));
  }

  /**
   * Creates a limiter and waits up to `connectTimeoutMs` for its first connection, so a
   * gateway starts in shared mode when Redis is up. Never rejects: when Redis is down the
   * limiter starts degraded and keeps reconnecting.
   */
  static async connect(options: RedisRateLimiterOptions): Promise<RedisRateLimiter> {
    const limiter = new RedisRateLimiter(options);
    await limiter.firstAttempt();
    return limiter;
  }

  /** True while Redis answers, i.e. limits are shared across gateways. */
  get shared(): boolean {
    return this.up;
  }

  async consume(bucket: string, limit: number, now = Date.now()): Promise<RateDecision> {
    const window = Math.floor(now / WINDOW_MS);
    const ttlMs = (window + 1) * WINDOW_MS - now + EXPIRY_MARGIN_MS;
    try {
      const [used, counted] = await this.redis.civicRateConsume(this.key(bucket, window), limit, ttlMs);
      this.markUp();
      return decision(window, limit, used, counted === 1);
    } catch (err) {
      this.markDown(err);
      return this.fallback.consume(bucket, limit, now);
    }
  }

  async peek(bucket: string, limit: number, now = Date.now()): Promise<RateDecision> {
    const window = Math.floor(now / WINDOW_MS);
    try {
      const used = Number((await this.redis.get(this.key(bucket, window))) ?? 0);
      this.markUp();
      return decision(window, limit, used, used < limit);
    } catch (err) {
      this.markDown(err);
      return this.fallback.peek(bucket, limit, now);
    }
  }

  async charge(bucket: string, limit: number, requests: number, now = Date.now()): Promise<RateDecision> {
    const window = Math.floor(now / WINDOW_MS);
    const ttlMs = (window + 1) * WINDOW_MS - now + EXPIRY_MARGIN_MS;
    const key = this.key(bucket, window);
    try {
      const replies = await this.redis
        .multi()
        .incrby(key, Math.max(0, Math.floor(requests)))
        .pexpire(key, ttlMs)
        .exec();
      // A command's own failure (WRONGTYPE, say) comes back inside the replies, not as a rejection.
      const [err, used] = replies?.[0] ?? [new Error('transaction discarded'), undefined];
      if (err !== null || typeof used !== 'number') throw err ?? new Error(`INCRBY answered ${String(used)}`);
      this.markUp();
      return decision(window, limit, used, used < limit);
    } catch (err) {
      this.markDown(err);
      return this.fallback.charge(bucket, limit, requests, now);
    }
  }

  /** Closes the connection (QUIT, or a hard disconnect when Redis does not answer). */
  async close(): Promise<void> {
    this.closing = true;
    this.up = false;
    try {
      await this.redis.quit();
    } catch {
      this.redis.disconnect();
    }
  }

  private key(bucket: string, window: number): string {
    return `${this.prefix}${bucket}:${window}`;
  }

  /** Resolves on the first ready, error or close, or after connectTimeoutMs. */
  private async firstAttempt(): Promise<void> {
    if (this.redis.status === 'ready') return;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        for (const e of ['ready', 'error', 'close']) this.redis.off(e, done);
        resolve();
      };
      const timer = setTimeout(done, this.connectTimeoutMs);
      for (const e of ['ready', 'error', 'close']) this.redis.once(e, done);
    });
  }

  private markUp(): void {
    if (this.up || this.closing) return;
    this.up = true;
    if (this.inOutage) this.log.info('Redis answers again; rate limits are shared across gateways');
    this.inOutage = false;
  }

  private markDown(err: unknown): void {
    if (this.closing) return;
    this.up = false;
    if (this.inOutage) return;
    this.inOutage = true;
    this.log.warn({ err }, 'Redis unavailable; each gateway enforces rate limits on its own until it returns');
  }
}

/** Resolves when Redis at `url` answers PING; for tests and startup checks. */
export async function probeRedis(url: string, timeoutMs = 2000): Promise<void> {
  const client = new Redis(url, { lazyConnect: true, connectTimeout: timeoutMs, retryStrategy: () => null });
  let cause: unknown;
  client.on('error', (err) => (cause = err)); // more telling than connect()'s "Connection is closed"
  try {
    await client.connect();
    await client.ping();
  } catch (err) {
    throw cause ?? err;
  } finally {
    client.disconnect();
  }
}

function decision(window: number, limit: number, used: number, allowed: boolean): RateDecision {
  return { allowed, limit, remaining: Math.max(0, limit - used), resetAt: ((window + 1) * WINDOW_MS) / 1000 };
}
