import { findState, InvalidParameterError, isIsoDate } from '@civicgraph/kit';
import { isLevel, type Level, type NodeKind } from '../model/kinds.js';
import { isSlugOf } from '../model/slugs.js';

/**
 * Request validation for the graph service, the owner of these rules: every failure is an
 * InvalidParameterError naming the field, in REST's snake_case words.
 */

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 200;

/** A two-letter state code (any case) → lowercase USPS; '' when optional and absent. */
export function stateParam(field: string, value: string, required: boolean): string {
  if (value === '') {
    if (required) throw new InvalidParameterError(field, `${field} is required: a two-letter state code such as CO.`);
    return '';
  }
  const state = /^[A-Za-z]{2}$/.test(value) ? findState(value) : undefined;
  if (state === undefined)
    throw new InvalidParameterError(field, `${field} must be a two-letter state code such as CO, got "${value}".`);
  return state.usps;
}

export function levelParam(field: string, value: string): Level | '' {
  if (value === '') return '';
  if (!isLevel(value))
    throw new InvalidParameterError(
      field,
      `${field} must be a level such as state, county or congressional-district, got "${value}".`,
    );
  return value;
}

export function dateParam(field: string, value: string): string {
  if (value !== '' && !isIsoDate(value))
    throw new InvalidParameterError(field, `${field} must be a calendar date written YYYY-MM-DD, got "${value}".`);
  return value;
}

export function confidenceParam(value: number): number {
  if (!Number.isFinite(value) || value < 0 || value > 1) {
    throw new InvalidParameterError('min_confidence', `min_confidence must be a number from 0 to 1, got ${value}.`);
  }
  return value;
}

export function limitParam(value: number): number {
  if (value === 0) return DEFAULT_LIMIT;
  if (!Number.isInteger(value) || value < 1 || value > MAX_LIMIT) {
    throw new InvalidParameterError('limit', `limit must be a whole number from 1 to ${MAX_LIMIT}, got ${value}.`);
  }
  return value;
}

/** A slug of the given kind; '' when optional and absent. */
export function slugParam(field: string, value: string, kind: NodeKind, required = false): string {
  if (value === '') {
    if (required) throw new InvalidParameterError(field, `${field} is required: a ${kind} slug such as ${kind}:….`);
    return '';
  }
  if (!isSlugOf(kind, value))
    throw new InvalidParameterError(field, `${field} must be a ${kind} slug (${kind}:<key>), got "${value}".`);
  return value;
}
