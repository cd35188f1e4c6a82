/**
 * Value sets of the election graph that every layer names (DESIGN, Graph model): the graph
 * service stores and checks them, the gateway documents and shapes them.
 */

/** How a provenance record was obtained; `synthetic` marks generated demo data. */
export const PROVENANCE_METHODS = ['official-filing', 'import', 'scrape', 'manual', 'synthetic'] as const;
export type ProvenanceMethod = (typeof PROVENANCE_METHODS)[number];

/** Candidacy filing status: DECLARED → FILED → QUALIFIED; any → WITHDRAWN; FILED/QUALIFIED → DISQUALIFIED. */
export const FILING_STATUSES = ['DECLARED', 'FILED', 'QUALIFIED', 'WITHDRAWN', 'DISQUALIFIED'] as const;
export type FilingStatus = (typeof FILING_STATUSES)[number];

/** Candidacy ballot access: PENDING → ON_BALLOT | WRITE_IN | DENIED; ON_BALLOT → REMOVED. */
export const BALLOT_ACCESSES = ['PENDING', 'ON_BALLOT', 'WRITE_IN', 'DENIED', 'REMOVED'] as const;
export type BallotAccess = (typeof BALLOT_ACCESSES)[number];
