import { schemas as ballot } from '../resources/ballot.js';
import { schemas as candidacy } from '../resources/candidacy.js';
import { schemas as contest } from '../resources/contest.js';
import { schemas as electionDate } from '../resources/election-date.js';
import { schemas as envelopes } from '../resources/envelopes.js';
import { schemas as meta } from '../resources/meta.js';
import { schemas as officeholder } from '../resources/officeholder.js';
import { schemas as problem } from '../resources/problem.js';
import { schemas as region } from '../resources/region.js';
import { schemas as results } from '../resources/results.js';
import type { JsonSchema } from './json-schema.js';

const SOURCES = [candidacy, contest, ballot, officeholder, electionDate, results, region, envelopes, meta, problem];

/** Merges schema records, refusing a name declared twice (one would silently shadow the other). */
export function mergeSchemas(sources: readonly Record<string, JsonSchema>[]): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const source of sources) {
    for (const [name, schema] of Object.entries(source)) {
      if (name in out) throw new Error(`Component schema ${name} is declared twice.`);
      out[name] = schema;
    }
  }
  return out;
}

/** Every component schema of /v1 (`#/components/schemas/<name>`), from every resource file. */
export const COMPONENTS: Readonly<Record<string, JsonSchema>> = mergeSchemas(SOURCES);
