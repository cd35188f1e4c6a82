import { slugKey } from '../../model/slugs.js';

/**
 * What a row's `candidate` names: a candidate, an aggregate of votes for nobody in
 * particular (write-ins, scattering), or a side of a ballot question. Retention rows name
 * the judge too (`DINNEL - YES`): each judge is a question of its own.
 */
export type Choice =
  | { kind: 'candidate'; key: string; person: string }
  | { kind: 'aggregate'; key: string }
  | { kind: 'yes' | 'no'; key: 'yes' | 'no'; judge: string | null };

/** Counts that are not votes for any choice: MEDSL carries them as rows in some states. */
const NOT_VOTES = new Set([
  'UNDERVOTES',
  'UNDERVOTE',
  'UNDER VOTES',
  'OVERVOTES',
  'OVERVOTE',
  'OVER VOTES',
  'BLANK',
  'BLANKS',
  'BLANK VOTES',
  'SPOILED',
  'REJECTED',
  'VOID',
  'REGISTERED VOTERS',
  'BALLOTS CAST',
  'TOTAL VOTES',
  'TOTAL BALLOTS',
]);
/** Real votes that no single candidate received: they count in totals but cannot win. */
const AGGREGATES = new Set([
  'WRITE-IN',
  'WRITE-INS',
  'WRITE IN',
  'WRITE INS',
  'WRITEIN',
  'SCATTERING',
  'OTHER WRITE INS',
  'OTHER WRITE-INS',
  'OTHER',
  'OTHERS',
  'ALL OTHERS',
  'UNCOMMITTED',
  'NONE OF THESE CANDIDATES',
]);
const SUFFIX = /^(JR|SR|II|III|IV|V)\.?$/;
const RETENTION = /^(.+?)\s+-\s+(YES|NO)$/;

/** The choice a `candidate` value names; undefined for a count that is not votes (undervotes). */
export function classifyChoice(candidate: string): Choice | undefined {
  const text = candidate.trim().replace(/\s+/g, ' ').toUpperCase();
  if (NOT_VOTES.has(text)) return undefined;
  if (AGGREGATES.has(text)) return { kind: 'aggregate', key: slugKey(text) };
  if (text === 'YES' || text === 'NO')
    return { kind: text === 'YES' ? 'yes' : 'no', key: text === 'YES' ? 'yes' : 'no', judge: null };
  const retention = RETENTION.exec(text);
  if (retention !== null) {
    const side = retention[2] === 'YES' ? 'yes' : 'no';
    return { kind: side, key: side, judge: retention[1]! };
  }
  const person = personName(candidate.trim().replace(/\s+/g, ' '));
  return { kind: 'candidate', key: slugKey(person), person };
}

/**
 * A candidate's name in reading order: the national MEDSL files write `HARRIS, KAMALA D.`,
 * the state files `KAMALA D HARRIS`; both key as `kamala-d-harris`, so one candidate has one
 * result slug whichever file is read. A trailing suffix moves to the end
 * (`KENNEDY, ROBERT F. JR` → `ROBERT F. KENNEDY JR`); `JOHN SMITH, JR.` is left as it is.
 */
export function personName(name: string): string {
  const parts = name.split(',').map((p) => p.trim());
  if (parts.length !== 2 || parts[0] === '' || parts[1] === '' || SUFFIX.test(parts[1]!.toUpperCase())) return name;
  const words = parts[1]!.split(' ');
  const suffix = words.length > 1 && SUFFIX.test(words.at(-1)!.toUpperCase()) ? words.pop()! : undefined;
  return [...words, parts[0]!, ...(suffix === undefined ? [] : [suffix])].join(' ');
}
