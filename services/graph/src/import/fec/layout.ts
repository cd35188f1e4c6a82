/**
 * The FEC "all candidates" summary file (weballYY.txt): pipe-delimited, no header, these
 * 30 columns in this order (FEC's own spelling, `PRECENT` included).
 */
export const WEBALL_COLUMNS = [
  'CAND_ID',
  'CAND_NAME',
  'CAND_ICI',
  'PTY_CD',
  'CAND_PTY_AFFILIATION',
  'TTL_RECEIPTS',
  'TRANS_FROM_AUTH',
  'TTL_DISB',
  'TRANS_TO_AUTH',
  'COH_BOP',
  'COH_COP',
  'CAND_CONTRIB',
  'CAND_LOANS',
  'OTHER_LOANS',
  'CAND_LOAN_REPAY',
  'OTHER_LOAN_REPAY',
  'DEBTS_OWED_BY',
  'TTL_INDIV_CONTRIB',
  'CAND_OFFICE_ST',
  'CAND_OFFICE_DISTRICT',
  'SPEC_ELECTION',
  'PRIM_ELECTION',
  'RUN_ELECTION',
  'GEN_ELECTION',
  'GEN_ELECTION_PRECENT',
  'OTHER_POL_CMTE_CONTRIB',
  'POL_PTY_CONTRIB',
  'CVG_END_DT',
  'INDIV_REFUNDS',
  'CMTE_REFUNDS',
] as const;

export type WeballColumn = (typeof WEBALL_COLUMNS)[number];

/** A row's fields by column name. */
export function byColumn(fields: readonly string[]): Record<WeballColumn, string> {
  return Object.fromEntries(WEBALL_COLUMNS.map((c, i) => [c, (fields[i] ?? '').trim()])) as Record<
    WeballColumn,
    string
  >;
}
