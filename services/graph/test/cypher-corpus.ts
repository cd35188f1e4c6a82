/**
 * The hand-written Cypher corpus over the whole supported subset, each query written to
 * find something in the demo graph (test/demo-regions.ts). Two suites ask it: the oracle
 * (src/cypher/oracle.int.test.ts, civicgraph against kuzu, so it stays inside what kuzu and
 * openCypher agree on; see the corners listed there) and the two executors
 * (src/cypher/two-executors.int.test.ts, the evaluator against the AQL compiler).
 */
export interface Case {
  query: string;
  parameters?: Record<string, unknown>;
  /** ORDER BY over a total order: the sequence is compared. */
  ordered?: boolean;
}

export const CORPUS: Case[] = [
  // MATCH: labels, inline properties, relationships typed, directed either way, undirected
  { query: 'MATCH (r:Region) RETURN r.slug, r.name, r.level, r.fips, r.ocdId, r.population' },
  { query: "MATCH (c:Contest {level: 'county', year: 2028}) RETURN c.slug, c.type, c.date, c.seats, c.special" },
  { query: 'MATCH (c:Candidacy)-[:FOR_CONTEST]->(k:Contest) RETURN k.slug AS contest, count(*) AS n' },
  {
    query:
      'MATCH (k:Contest)<-[:FOR_CONTEST]-(c:Candidacy) RETURN k.level, avg(c.confidence) AS mean, min(c.confidence), max(c.confidence)',
  },
  { query: 'MATCH (o:Office)-[:SERVES_REGION]-(r:Region) RETURN o.name, o.tier, r.name' },
  { query: 'MATCH (n)-[:SUPPORTED_BY]->(p:Provenance) RETURN p.slug, p.method, count(n) AS supported' },
  { query: "MATCH (p:Person)-[h:HOLDS {party: 'party:republican'}]->(o:Office) RETURN p.name, h.start, o.name" },
  // Inline relationship properties naming an earlier variable: civicgraph refused them (fixed; match.test.ts).
  {
    query:
      'MATCH (p:Person)-[h:HOLDS]->(:Office) MATCH (q:Person)-[:HOLDS {party: h.party}]->(o:Office) RETURN p.name, q.name, o.name',
  },
  { query: 'MATCH (r:Region)-[:WITHIN|OVERLAPS]->(s:Region) RETURN r.slug, s.slug' },
  // several patterns and longer chains
  {
    query:
      "MATCH (c:Candidacy)-[:FOR_CONTEST]->(k:Contest), (k)-[:IN_REGION]->(r:Region) WHERE r.level = 'state' RETURN c.name, k.name, r.name",
  },
  {
    query:
      'MATCH (p:Person)<-[:OF_PERSON]-(c:Candidacy)-[:OF_PARTY]->(y:Party) RETURN y.abbreviation AS party, count(*) AS candidacies, count(DISTINCT p.slug) AS people',
  },
  {
    query:
      'MATCH (x:Result)-[:RESULT_FOR]->(c:Candidacy)-[:FOR_CONTEST]->(k:Contest)-[:IN_ELECTION]->(e:Election) RETURN e.slug, k.slug, sum(x.votes) AS votes, max(x.totalVotes) AS total, avg(x.share) AS share',
  },
  {
    query:
      'MATCH (c1:Candidacy)-[:FOR_CONTEST]->(k:Contest)<-[:FOR_CONTEST]-(c2:Candidacy) WHERE c1.slug < c2.slug RETURN k.slug, count(*) AS pairs',
  },
  {
    query:
      'MATCH (c1:Candidacy)-[:FOR_CONTEST]->(k:Contest) MATCH (c2:Candidacy)-[:FOR_CONTEST]->(k) RETURN k.level, count(*) AS pairs',
  },
  // bounded variable-length paths
  { query: 'MATCH (r:Region)-[:WITHIN*1..2]->(s:Region) RETURN r.slug, s.slug' },
  {
    query:
      "MATCH (r:Region {slug: 'region:co-cd-1'})-[:WITHIN|OVERLAPS*1..3]-(s:Region) RETURN s.slug, count(*) AS paths",
  },
  { query: 'MATCH (c:Candidacy)-[*1..2]->(r:Region) RETURN r.slug, count(*) AS n' },
  { query: "MATCH (c:Candidacy {state: 'de'})-[:FOR_CONTEST*2..2]-(d:Candidacy) RETURN c.slug, count(d) AS rivals" },
  { query: "MATCH (s:Region)-[:WITHIN*1..2]->(r:Region {slug: 'region:co'}) RETURN s.slug" },
  // A path of no relationships: civicgraph left it out (fixed; match.test.ts).
  { query: 'MATCH (r:Region)-[:WITHIN*0..1]->(s:Region) RETURN r.slug, s.slug' },
  // OPTIONAL MATCH
  { query: "OPTIONAL MATCH (r:Region {slug: 'region:nowhere'}) RETURN r.slug" },
  {
    query:
      'MATCH (c:Candidacy) OPTIONAL MATCH (c)-[:OF_PARTY]->(y:Party) OPTIONAL MATCH (x:Result)-[:RESULT_FOR]->(c) RETURN y.abbreviation, count(x), count(*)',
  },
  { query: 'MATCH (c:Candidacy) OPTIONAL MATCH (x:Result)-[:RESULT_FOR]->(c) RETURN c.slug, x.votes, x.winner' },
  {
    query:
      "MATCH (o:Office) OPTIONAL MATCH (p:Person)-[h:HOLDS]->(o) WHERE h.start >= '2027-01-01' RETURN o.slug, p.name, h.start",
  },
  {
    query:
      "MATCH (k:Contest) OPTIONAL MATCH (k)<-[:FOR_CONTEST]-(c:Candidacy {filingStatus: 'WITHDRAWN'}) RETURN k.slug, count(c) AS withdrawn",
  },
  // WHERE: comparisons, logic, IN, text tests, nulls
  { query: "MATCH (c:Contest) WHERE c.year = 2028 AND c.type = 'primary' RETURN c.name, c.state" },
  {
    query:
      "MATCH (c:Candidacy) WHERE (c.isIncumbent XOR c.filingStatus = 'QUALIFIED') AND NOT c.ballotAccess = 'DENIED' RETURN c.slug, c.isIncumbent",
  },
  { query: 'MATCH (x:Result) WHERE x.share > 0.3 AND x.share <= 0.6 OR x.votes < 20000 RETURN x.slug, x.share' },
  {
    query:
      "MATCH (p:Position) WHERE p.issue IN ['housing', 'water'] AND p.stance <> 'undecided' RETURN p.issue, p.stance, count(*) AS n",
  },
  { query: 'MATCH (e:Election) WHERE e.state IN $states RETURN e.slug, e.date', parameters: { states: ['co', 'xx'] } },
  { query: "MATCH (r:Region) WHERE r.ocdId STARTS WITH 'ocd-division/country:us/state:co' RETURN r.slug" },
  {
    query: "MATCH (p:Person) WHERE p.name ENDS WITH 'Fairbanks' OR p.name CONTAINS 'Vale' RETURN p.name, p.familyName",
  },
  { query: 'MATCH (r:Region) WHERE r.fips IS NULL OR r.population IS NOT NULL RETURN r.slug' },
  { query: 'MATCH (x:Result) WHERE x.winner IS NOT NULL AND NOT x.certified = false RETURN x.winner, count(*) AS n' },
  {
    query:
      "MATCH (c:Candidacy) WHERE 'hello@dana-everly.example.org' IN c.campaignEmails RETURN c.slug, c.campaignPhones",
  },
  { query: "MATCH (e:Election) WHERE e.date >= '2028-01-01' AND e.date < '2028-07-01' RETURN e.slug" },
  { query: "MATCH (e:Election) WHERE e.state = '' RETURN e.slug" },
  // A slug named twice binds its node once: civicgraph bound it twice (fixed; match.test.ts).
  { query: "MATCH (p:Party) WHERE p.slug IN ['party:green', 'party:green', 'party:democratic'] RETURN p.slug" },
  { query: 'MATCH (x:Result) WHERE -x.votes < -150000 RETURN count(*)' },
  // parameters
  {
    query: 'MATCH (c:Contest) WHERE c.year >= $from AND c.level = $level RETURN c.slug, c.year',
    parameters: { from: 2027, level: 'state' },
  },
  { query: 'MATCH (c:Candidacy) WHERE c.confidence > $floor RETURN count(*)', parameters: { floor: 0.1 } },
  // list and map literals, expressions
  {
    query:
      'MATCH (p:Party) RETURN p.abbreviation, [p.name, p.slug] AS pair, {name: p.name, code: p.abbreviation} AS party',
  },
  { query: "MATCH (p:Party) RETURN p.abbreviation + ':' + p.name AS label, size(p.name) AS length" },
  { query: "MATCH (p:Party) RETURN toLower(p.abbreviation), toUpper(p.name), coalesce(p.abbreviation, 'none')" },
  { query: 'MATCH (x:Result) RETURN x.slug, x.votes * 2 + 1 AS v, x.totalVotes - x.votes AS others' },
  { query: 'MATCH (x:Result) RETURN max(x.votes) - min(x.votes) AS spread, count(*) * 2 AS doubled' },
  // WITH, WHERE after aggregation, UNWIND
  { query: 'MATCH (k:Contest)<-[:FOR_CONTEST]-(c:Candidacy) WITH k, count(c) AS n WHERE n > 3 RETURN k.slug, n' },
  {
    query:
      'MATCH (k:Contest)<-[:FOR_CONTEST]-(c:Candidacy) WITH k, count(c) AS n WHERE n >= 2 MATCH (k)-[:IN_REGION]->(r:Region) RETURN r.level, sum(n) AS candidacies',
  },
  {
    query:
      'MATCH (c:Candidacy) WITH c.state AS state, c.confidence AS confidence WHERE confidence > 0.1 RETURN state, count(*)',
  },
  { query: 'MATCH (c:Candidacy) WITH DISTINCT c.state AS s RETURN s' },
  { query: "UNWIND ['co', 'de', 'zz'] AS s MATCH (e:Election {state: s}) RETURN s, count(*) AS n" },
  { query: 'MATCH (c:Candidacy) UNWIND c.campaignEmails AS email RETURN count(email), count(DISTINCT email)' },
  { query: 'MATCH (y:Party) WITH collect(y.abbreviation) AS codes UNWIND codes AS code RETURN code' },
  {
    query: 'UNWIND $years AS y MATCH (c:Contest {year: y}) RETURN y, count(c)',
    parameters: { years: [2026, 2028, 2030] },
  },
  // RETURN DISTINCT, aliases, aggregates
  { query: 'MATCH (c:Candidacy) RETURN DISTINCT c.filingStatus, c.ballotAccess' },
  { query: 'MATCH (o:Office) RETURN o.level AS level, o.tier AS tier, count(*) AS offices' },
  { query: 'MATCH (x:Result) RETURN count(*), count(x.winner), count(DISTINCT x.party), count(DISTINCT x.certified)' },
  { query: 'MATCH (e:Election) RETURN e.state, min(e.date) AS first, max(e.date) AS last, max(e.name) AS name' },
  { query: 'MATCH (k:Contest)<-[:FOR_CONTEST]-(c:Candidacy) RETURN k.slug, collect(c.name) AS names' },
  { query: 'MATCH (c:Candidacy)-[:OF_PARTY]->(y:Party) RETURN c.state, collect(DISTINCT y.abbreviation) AS parties' },
  {
    query:
      'MATCH (c:Contest) WHERE c.year > 3000 RETURN count(*), count(c.slug), min(c.year), max(c.name), avg(c.seats)',
  },
  {
    query:
      'MATCH (p:Party)<-[:OF_PARTY]-(c:Candidacy)-[:FOR_CONTEST]->(k:Contest) RETURN p.slug, size(collect(c)) AS candidacies, count(DISTINCT k) AS contests',
  },
  { query: "MATCH (c:Candidacy) RETURN c.state + '/' + c.tier AS scope, count(*) AS n" },
  { query: 'MATCH (x:Result) RETURN x.votes % 7 AS rest, count(*) AS n' },
  { query: 'MATCH (c:Contest) WHERE NOT c.special RETURN c.special, sum(c.seats) AS seats, avg(c.year) AS year' },
  { query: 'MATCH (x:Result) RETURN x.certified, x.winner, sum(x.share) AS share, min(x.share), max(x.winner)' },
  // ORDER BY (total), SKIP, LIMIT
  { query: 'MATCH (c:Candidacy) RETURN c.slug ORDER BY c.slug SKIP 5 LIMIT 10', ordered: true },
  { query: 'MATCH (p:Position) RETURN p.issue AS issue, count(*) AS n ORDER BY n DESC, issue LIMIT 5', ordered: true },
  { query: 'MATCH (r:Region) RETURN r.slug AS slug, r.fips AS fips ORDER BY fips DESC, slug', ordered: true },
  {
    query: 'MATCH (c:Contest) RETURN c.state AS state, c.year AS year, count(*) AS n ORDER BY state, year DESC',
    ordered: true,
  },
  {
    query: 'MATCH (x:Result) RETURN x.slug AS slug, x.share AS share ORDER BY share DESC, slug SKIP $skip LIMIT $limit',
    parameters: { skip: 2, limit: 7 },
    ordered: true,
  },
  { query: 'MATCH (c:Candidacy) WITH c ORDER BY c.confidence DESC, c.slug LIMIT 5 RETURN c.slug, c.confidence' },
  { query: 'MATCH (c:Candidacy) RETURN c.name ORDER BY c.confidence DESC, c.slug LIMIT 5', ordered: true },
  { query: 'MATCH (k:Contest) RETURN k.level, count(*) ORDER BY count(*) DESC, k.level', ordered: true },
];
