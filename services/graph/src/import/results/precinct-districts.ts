import type { DraftBatch, DraftItem, NodeDraft } from '../../domain/drafts.js';
import type { EdgeDoc } from '../../model/nodes.js';
import { edge, ImportFileError, parseDelimited, shapeProblem } from '../shared/index.js';
import { classifyChoice } from './choices.js';
import { identifyContest, type ContestKind } from './contest-identity.js';
import { isRowProblem, parseMedslRow } from './medsl-row.js';
import { resultsSource, type ProvenanceOverrides } from './provenance.js';
import { countyOf } from './regions.js';
import type { ServedRegion } from '../shared/served-regions.js';
import { readResultsText } from './source-file.js';

export interface PrecinctDistrictsOptions {
  provenance?: ProvenanceOverrides;
  /** In a zip holding several CSV files, the one to read. */
  entry?: string;
}

/** A county's precincts and, per contest region, the precincts that voted in it. */
interface CountyTally {
  county: ServedRegion;
  precincts: Set<string>;
  regions: Map<string, { draft: ServedRegion['draft']; precincts: Set<string> }>;
  /** What the districts lie within (a ward in its city), and those containers' drafts. */
  within: EdgeDoc[];
  containers: Map<string, NodeDraft>;
  date: string;
}

/**
 * `civicgraph import precinct-districts <precinct returns>`: what certified precinct-level
 * returns (MEDSL's state files, e.g. de24.zip, or the Denver extract of co24) say about
 * geography, not votes: for each county, the districts its precincts voted in. A district
 * every precinct of the county voted in holds the county (county WITHIN district: Denver
 * in the 2nd Judicial District); one only some voted in overlaps it (county OVERLAPS
 * district: Denver and transit director district A). Ballots use these to place points in
 * districts no boundary resolves. The file must hold all of a county's precincts, as
 * MEDSL's state files do; one batch per county. Vote totals are not read: `import results`
 * takes those from contest totals.
 */
export async function* importPrecinctDistricts(
  path: string,
  options: PrecinctDistrictsOptions = {},
): AsyncGenerator<DraftItem> {
  const file = await readResultsText(path, options.entry);
  const source = resultsSource(path, options.provenance);
  const counties = new Map<string, CountyTally>();
  const rows = parseDelimited(file.text, path);
  const first = rows.next();
  if (first.done === true) throw new ImportFileError(path, 0, 'the file is empty: expected a CSV header row');
  const header = first.value.fields.map((f) => f.trim().toLowerCase());
  for (const column of ['precinct', 'county_name', 'office', 'candidate', 'state_po']) {
    if (!header.includes(column))
      throw new ImportFileError(
        path,
        first.value.line,
        `the header lacks column ${column}: not a MEDSL precinct returns file`,
      );
  }
  for (const row of rows) {
    if (row.fields.length !== header.length) {
      yield { rejected: { at: `line ${row.line}`, reason: `the row has ${shapeProblem(row, header.length)}` } };
      continue;
    }
    const values = Object.fromEntries(header.map((h, i) => [h, row.fields[i]!]));
    const problem = addRow(counties, values, row.line);
    if (problem !== undefined) yield { rejected: { at: `line ${row.line}`, reason: problem } };
  }
  for (const tally of counties.values())
    yield { at: `${tally.county.name} (${tally.precincts.size} precincts)`, batch: countyBatch(tally, source.draft) };
}

/** Records one row's precinct and contest region; a problem when the row names neither a county nor a contest region. */
function addRow(counties: Map<string, CountyTally>, values: Record<string, string>, line: number): string | undefined {
  const parsed = parseMedslRow(values, line);
  if (isRowProblem(parsed)) return parsed.problem;
  const countyName = (values['county_name'] ?? '').trim().toUpperCase();
  const precinct = (values['precinct'] ?? '').trim();
  if (countyName === '' || precinct === '') return 'county_name and precinct are required';
  const choice = classifyChoice(parsed.candidate);
  if (choice === undefined) return undefined;
  const question = choice.kind === 'yes' || choice.kind === 'no';
  const kind: ContestKind = question
    ? /RETENTION/.test(parsed.office) || choice.judge !== null
      ? 'retention'
      : 'measure'
    : 'candidate';
  const id = identifyContest({ key: parsed, dataverse: parsed.dataverse, kind, judge: question ? choice.judge : null });
  if ('problem' in id) return id.problem;
  const county = countyOf(parsed.state, countyName);
  const key = county.draft.slug;
  let tally = counties.get(key);
  if (tally === undefined)
    counties.set(
      key,
      (tally = {
        county,
        precincts: new Set(),
        regions: new Map(),
        within: [],
        containers: new Map(),
        date: parsed.date,
      }),
    );
  tally.precincts.add(precinct);
  const region = id.region.draft;
  if (region.data.level === 'state' || region.data.level === 'national' || region.slug === key) return undefined;
  let entry = tally.regions.get(region.slug);
  if (entry === undefined) {
    tally.regions.set(region.slug, (entry = { draft: region, precincts: new Set() }));
    tally.within.push(...id.within);
    for (const r of id.regions) tally.containers.set(r.slug, r);
  }
  entry.precincts.add(precinct);
  return undefined;
}

function countyBatch(t: CountyTally, provenance: NodeDraft): DraftBatch {
  const nodes: NodeDraft[] = [provenance, t.county.draft];
  const edges: EdgeDoc[] = [...t.within];
  for (const [slug, { draft, precincts }] of [...t.regions].sort(([a], [b]) => (a < b ? -1 : 1))) {
    nodes.push(draft);
    const whole = precincts.size === t.precincts.size;
    edges.push(
      edge(whole ? 'WITHIN' : 'OVERLAPS', t.county.draft.slug, slug, '', {
        election: t.date,
        precincts: precincts.size,
        of: t.precincts.size,
        source: provenance.slug,
      }),
    );
  }
  return { nodes: dedupe([...nodes, ...t.containers.values()]), edges: dedupeEdges(edges) };
}

function dedupe(nodes: NodeDraft[]): NodeDraft[] {
  return [...new Map(nodes.map((n) => [n.slug, n])).values()];
}

function dedupeEdges(edges: EdgeDoc[]): EdgeDoc[] {
  return [...new Map(edges.map((e) => [`${e.kind}|${e.from}|${e.to}|${e.key}`, e])).values()];
}
