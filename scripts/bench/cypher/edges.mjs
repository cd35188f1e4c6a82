// bench:graph's synthetic documents are contests and candidacies only: its ballot query reads
// the slugs they cite and needs no edges. The Cypher queries walk FOR_CONTEST, OF_PARTY and
// FOR_OFFICE to Party and Office nodes, so this adds what the writer would have stored beside
// those documents: one party node per party slug cited, one office node per office slug
// cited (named as its contests are), and the three edge kinds, key '' and no data, as the
// writer links them. Nothing else is added (no people, regions or SUPPORTED_BY edges).

const ABBREVIATIONS = { democratic: 'DEM', republican: 'REP', libertarian: 'LIB', green: 'GRN' };

/** The party and office nodes and the edges the Cypher queries walk, derived from the synthetic documents. */
export function edgesOf(nodes) {
  const parties = new Map();
  const offices = new Map();
  const edges = [];
  for (const n of nodes) {
    if (n.kind === 'contest') {
      if (!offices.has(n.data.office)) offices.set(n.data.office, office(n));
      edges.push(edge('FOR_OFFICE', n.slug, n.data.office));
    } else if (n.kind === 'candidacy') {
      const party = n.data.fields.party.value;
      if (!parties.has(party)) parties.set(party, partyDoc(party, n.updatedAt));
      edges.push(edge('FOR_CONTEST', n.slug, n.data.fields.contest.value));
      edges.push(edge('OF_PARTY', n.slug, party));
    }
  }
  return { nodes: [...parties.values(), ...offices.values()], edges };
}

function edge(kind, from, to) {
  return { kind, from, to, key: '', data: {} };
}

function partyDoc(slug, updatedAt) {
  const word = slug.slice('party:'.length);
  const name = word[0].toUpperCase() + word.slice(1);
  return {
    slug,
    kind: 'party',
    state: '',
    tier: '',
    data: { name, abbreviation: ABBREVIATIONS[word] ?? word.slice(0, 3).toUpperCase() },
    rev: 1,
    updatedAt,
  };
}

function office(contest) {
  const { name, level, region } = contest.data;
  return {
    slug: contest.data.office,
    kind: 'office',
    state: contest.state,
    tier: contest.tier,
    data: { name, level, tier: contest.tier, region },
    rev: 1,
    updatedAt: contest.updatedAt,
  };
}
