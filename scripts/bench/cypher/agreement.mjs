// The three engines must return the same rows, in the same order, or the timings compare
// nothing: a difference stops the benchmark before it writes a report.

const cell = (v) => (v === null || v === undefined ? '' : String(v));
const key = (row) => JSON.stringify(row.map(cell));

/** Throws, naming the engines and the first differing row, unless every answer has the first one's rows. */
export function assertSameRows(query, answers) {
  const [first, ...others] = answers;
  for (const other of others) {
    const n = Math.max(first.rows.length, other.rows.length);
    for (let i = 0; i < n; i++) {
      const a = first.rows[i];
      const b = other.rows[i];
      if (a !== undefined && b !== undefined && key(a) === key(b)) continue;
      throw new Error(
        `${query.id} (${query.title}): ${other.engine} disagrees with ${first.engine} at row ${i} ` +
          `(${other.rows.length} rows against ${first.rows.length}): ` +
          `${first.engine} ${a === undefined ? 'has no row' : key(a)}, ${other.engine} ${b === undefined ? 'has no row' : key(b)}`,
      );
    }
  }
  return first.rows.length;
}
