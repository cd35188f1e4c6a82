import type { DraftItem, PlainDraft } from '../../domain/drafts.js';
import { batchItem, rejected } from '../shared/batch.js';
import { ImportFileError } from '../shared/errors.js';
import { provenanceDraft, retrievedAt } from '../shared/provenance.js';
import { readTextFile } from '../shared/text-file.js';
import { personFiles, type PersonFile } from './folders.js';
import { parsePersonFile } from './person-file.js';
import { openStatesPersonSlug, personOutcome, type PersonContext } from './person-batch.js';
import { readPerson } from './person-record.js';
import { PlaceTable } from './places.js';

export interface OpenStatesImportOptions {
  /**
   * When the copy was taken from openstates/people (a date or an RFC 3339 instant):
   * required. A checkout's file times say when it was checked out, not what it holds.
   */
  retrievedAt?: string | Date;
  /** How the file was delivered dates it (HTTP Last-Modified, a mirror's snapshot): used when no `retrievedAt` is given. */
  sourceDate?: string;
  /** opencivicdata/ocd-division-ids' `country-us` folder or its `us_census_places.csv`: where mayors' cities are found. */
  places?: string;
}

/**
 * `civicgraph import openstates-people <folder>`: Open States people (one YAML file per
 * person, openstates/people `data/<state>/{legislature,executive,municipalities}/`) →
 * persons, the offices they hold (state legislators, governors and other statewide
 * officers, mayors) and their dated terms. One item per person file, plus a rejection for
 * each role, email or link that cannot be used; an unreadable file is a rejection naming it
 * and its line, and the other files go on. Without `retrievedAt` nothing is read.
 */
export function importOpenStatesPeople(path: string, options: OpenStatesImportOptions = {}): AsyncGenerator<DraftItem> {
  return people(
    path,
    openStatesProvenance(retrievedAt(options.retrievedAt, undefined, path, options.sourceDate)),
    options.places,
  );
}

async function* people(
  path: string,
  provenance: PlainDraft<'provenance'>,
  placesPath: string | undefined,
): AsyncGenerator<DraftItem> {
  const files = personFiles(path);
  const ctx: PersonContext = {
    provenance,
    places: placesPath === undefined ? undefined : await PlaceTable.load(placesPath),
  };
  const seen = new Map<string, string>();
  for (const file of files) yield* fileItems(file, ctx, seen);
}

async function* fileItems(file: PersonFile, ctx: PersonContext, seen: Map<string, string>): AsyncGenerator<DraftItem> {
  const parsed = await readPersonFile(file);
  if ('reason' in parsed) {
    yield rejected(parsed.line > 0 ? `${file.label} line ${parsed.line}` : file.label, parsed.reason);
    return;
  }
  const person = readPerson(parsed.value);
  if ('reason' in person) {
    yield rejected(file.label, person.reason);
    return;
  }
  const slug = openStatesPersonSlug(person.uuid);
  const first = seen.get(slug);
  if (first !== undefined) {
    yield rejected(file.label, `${person.id} is also in ${first}`);
    return;
  }
  seen.set(slug, file.label);
  const outcome = personOutcome(person, file, ctx);
  if (outcome.batch !== undefined) yield batchItem(`${file.label} (${person.id})`, outcome.batch);
  for (const p of outcome.problems) yield rejected(p.at, p.reason);
}

/** The file's record, or why it cannot be read (bytes that are not UTF-8, malformed YAML). */
async function readPersonFile(
  file: PersonFile,
): Promise<{ value: Record<string, unknown> } | { line: number; reason: string }> {
  try {
    return parsePersonFile((await readTextFile(file.path)).text);
  } catch (err) {
    if (err instanceof ImportFileError) return { line: err.line, reason: err.reason };
    throw err;
  }
}

/** `provenance:openstates-people`: one record for the import, whatever states it covers. */
function openStatesProvenance(at: string): PlainDraft<'provenance'> {
  return provenanceDraft({
    key: 'openstates-people',
    source: 'Open States people (openstates/people)',
    url: 'https://github.com/openstates/people',
    publisher: 'Open States',
    licence: 'CC0-1.0',
    retrievedAt: at,
    method: 'import',
  });
}
