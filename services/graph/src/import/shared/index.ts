/**
 * Parsing and drafting helpers shared by the importers (OCD, legislators, FEC, results,
 * VIP). Keep this surface small: other importers build on it.
 */
export { ImportFileError } from './errors.js';
export { readTextFile, decode, type TextFile, type SourceEncoding } from './text-file.js';
export {
  parseDelimited,
  headeredRows,
  shapeProblem,
  type DelimitedOptions,
  type SourceRow,
  type HeaderedRow,
} from './csv.js';
export { parseDate, generalElectionDay } from './dates.js';
export { provenanceDraft, retrievedAt, type SourceDescription } from './provenance.js';
export { edge, sourcedBatch, batchItem, rejected, isRejection } from './batch.js';
export {
  NATIONAL_REGION,
  nationalRegion,
  stateRegion,
  congressionalRegion,
  legislativeRegion,
  reference,
} from './regions.js';
export { fecParty, partyByName, partyDraft, partySlug, type PartyInfo, type PartyStatement } from './parties.js';
export {
  houseSeat,
  senateSeat,
  presidency,
  vicePresidency,
  SENATE_CLASSES,
  KNOWN_SENATE_SPECIALS,
  regularSenateClass,
  type Seat,
} from './federal-offices.js';
export { readSourceBytes, isZipJunk, fileFromZip } from './source-bytes.js';
