// The two queries of issue 24's targets, each as Cypher (run unchanged by civicgraph and kuzu)
// and as the equivalent SQL over bench:graph's PostgreSQL tables (plus the party and office
// tables and foreign-key columns postgres.mjs adds). Strings sort by code point in all three
// engines (COLLATE "C" in SQL), so the rows must agree in order too.

/**
 * Q2's state and threshold. Texas has the most regions (254 counties and 38 districts), so the
 * most contests. Every synthetic contest has exactly four candidacies, so `n > 3` keeps every
 * contest of the state: the WHERE runs on every group but narrows nothing.
 */
export const Q2_STATE = 'tx';
export const Q2_N = 3;

const sqlString = (s) => `'${s.replaceAll("'", "''")}'`;

export const QUERIES = [
  {
    id: 'q1',
    title: 'candidacies per party per state',
    cypher:
      'MATCH (c:Candidacy)-[:OF_PARTY]->(p:Party) RETURN c.state AS state, p.name AS party, count(*) AS n ORDER BY state, party',
    parameters: {},
    sql: `SELECT k.state AS state, p.name AS party, count(*) AS n
  FROM candidacy k JOIN party p ON p.slug = k.party
  GROUP BY k.state, p.name
  ORDER BY k.state COLLATE "C", p.name COLLATE "C"`,
  },
  {
    id: 'q2',
    title: `contests with more than ${Q2_N} candidacies in a state (${Q2_STATE}), with their offices`,
    cypher:
      'MATCH (c:Contest {state: $state})<-[:FOR_CONTEST]-(k:Candidacy) WITH c, count(k) AS n WHERE n > $n MATCH (c)-[:FOR_OFFICE]->(o:Office) RETURN c.slug, o.name, n ORDER BY n DESC, c.slug',
    parameters: { state: Q2_STATE, n: Q2_N },
    // Office is one per contest, so grouping by (contest, office) groups by contest, as the WITH does.
    sql: `SELECT c.slug, o.name, count(*) AS n
  FROM contest c JOIN candidacy k ON k.contest = c.slug JOIN office o ON o.slug = c.office
  WHERE c.state = ${sqlString(Q2_STATE)}
  GROUP BY c.slug, o.name
  HAVING count(*) > ${Number(Q2_N)}
  ORDER BY n DESC, c.slug COLLATE "C"`,
  },
];
