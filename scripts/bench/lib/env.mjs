// Environment readers for the benchmark scripts: a bad value fails at start naming the variable.
import { resolve } from 'node:path';

/** An integer variable within [min, max], or `fallback` when unset. */
export function int(name, fallback, min, max) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new Error(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  return n;
}

/** A 0/1 flag, false when unset. */
export function flag(name) {
  const raw = process.env[name];
  if (raw === undefined || raw === '' || raw === '0') return false;
  if (raw === '1') return true;
  throw new Error(`${name} must be 0 or 1, got "${raw}"`);
}

/** A file path, or `fallback` when unset (relative paths from the working directory). */
export function path(name, fallback) {
  const raw = process.env[name];
  return raw === undefined || raw === '' ? fallback : resolve(raw);
}
