import { InvalidParameterError, STATES_BY_USPS, SUBSCRIBABLE_EVENT_TYPES } from '@civicgraph/kit';

/**
 * Bodies of the webhook endpoint API, checked field by field: an unknown field, a wrong
 * type, an unknown event type or state is a 400 naming the field (with its index in a
 * list). The URL is checked separately (target-url.ts), since that needs the key's
 * environment and a DNS lookup.
 */

export interface EndpointFields {
  url: string;
  events: string[];
  /** Lowercase USPS codes; empty = every state the key may see. */
  states: string[];
  description: string;
}

export interface EndpointPatch {
  url?: string;
  events?: string[];
  states?: string[];
  description?: string;
  /** Re-enables an endpoint disabled by a 410, or pauses one. */
  enabled?: boolean;
}

export const MAX_EVENT_TYPES = 50;
export const MAX_DESCRIPTION = 500;
const KNOWN_TYPES = new Set(SUBSCRIBABLE_EVENT_TYPES);

type Json = Record<string, unknown>;

export function endpointFields(body: unknown): EndpointFields {
  const o = object(body);
  only(o, ['url', 'events', 'states', 'description']);
  if (o['url'] === undefined)
    throw new InvalidParameterError('url', 'url is required: the https URL events are POSTed to.');
  if (o['events'] === undefined)
    throw new InvalidParameterError('events', `events is required: a list of event types, e.g. ["candidacy.updated"].`);
  return {
    url: o['url'] as string,
    events: events(o['events']),
    states: states(o['states']),
    description: description(o['description']),
  };
}

export function endpointPatch(body: unknown): EndpointPatch {
  const o = object(body);
  only(o, ['url', 'events', 'states', 'description', 'enabled']);
  if (o['enabled'] !== undefined && typeof o['enabled'] !== 'boolean')
    throw new InvalidParameterError('enabled', 'enabled must be true or false.');
  return {
    ...(o['url'] === undefined ? {} : { url: o['url'] as string }),
    ...(o['events'] === undefined ? {} : { events: events(o['events']) }),
    ...(o['states'] === undefined ? {} : { states: states(o['states']) }),
    ...(o['description'] === undefined ? {} : { description: description(o['description']) }),
    ...(o['enabled'] === undefined ? {} : { enabled: o['enabled'] as boolean }),
  };
}

function object(body: unknown): Json {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new InvalidParameterError('body', 'The body must be a JSON object.');
  return body as Json;
}

function only(o: Json, known: readonly string[]): void {
  for (const k of Object.keys(o)) {
    if (!known.includes(k))
      throw new InvalidParameterError(
        k.slice(0, 60),
        `Unknown field ${JSON.stringify(k.slice(0, 60))}; known: ${known.join(', ')}.`,
      );
  }
}

function events(v: unknown): string[] {
  if (!Array.isArray(v) || v.length === 0 || v.length > MAX_EVENT_TYPES) {
    throw new InvalidParameterError('events', `events must be a list of 1 to ${MAX_EVENT_TYPES} event types.`);
  }
  v.forEach((t, i) => {
    if (typeof t !== 'string' || !KNOWN_TYPES.has(t)) {
      throw new InvalidParameterError(
        `events[${i}]`,
        `${JSON.stringify(String(t).slice(0, 60))} is not an event type; known: ${SUBSCRIBABLE_EVENT_TYPES.join(', ')}.`,
      );
    }
  });
  return [...new Set(v as string[])].sort();
}

function states(v: unknown): string[] {
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.length > 60)
    throw new InvalidParameterError('states', 'states must be a list of USPS state codes.');
  return [
    ...new Set(
      v.map((s, i) => {
        const code = typeof s === 'string' ? s.trim().toLowerCase() : '';
        if (!STATES_BY_USPS.has(code))
          throw new InvalidParameterError(
            `states[${i}]`,
            `${JSON.stringify(String(s).slice(0, 20))} is not a USPS state code.`,
          );
        return code;
      }),
    ),
  ].sort();
}

function description(v: unknown): string {
  if (v === undefined) return '';
  if (typeof v !== 'string' || v.length > MAX_DESCRIPTION)
    throw new InvalidParameterError(
      'description',
      `description must be text of at most ${MAX_DESCRIPTION} characters.`,
    );
  return v;
}
