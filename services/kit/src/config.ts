import { InvalidParameterError } from './errors.js';

/**
 * Helpers for each service's single env reader (`config.ts`). A reader states every
 * variable with its default beside it and fails at start naming the bad variable.
 */
export class ConfigError extends Error {
  constructor(readonly variable: string, message: string) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

type Env = Readonly<Record<string, string | undefined>>;

export function str(env: Env, name: string, fallback: string): string {
  const v = env[name];
  return v === undefined || v === '' ? fallback : v;
}

export function optionalStr(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v === '' ? undefined : v;
}

export function int(env: Env, name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(name, `expected an integer from ${min} to ${max}, got "${raw}"`);
  }
  return n;
}

export function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `expected one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

export function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes'].includes(raw)) return true;
  if (['0', 'false', 'no'].includes(raw)) return false;
  throw new ConfigError(name, `expected true/false, got "${raw}"`);
}

export function list(env: Env, name: string): string[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return [];
  return raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
}

/** Asserts a value parsed from user input is present, for readers that take flags too. */
export function required(field: string, value: string | undefined): string {
  if (value === undefined || value === '') throw new InvalidParameterError(field, `${field} is required`);
  return value;
}

/** The deployment environment word used in event subjects, `civic.<env>.…`. */
export const ENVIRONMENTS = ['test', 'live'] as const;
export type DeploymentEnvironment = (typeof ENVIRONMENTS)[number];
