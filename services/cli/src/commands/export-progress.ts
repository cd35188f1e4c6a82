/**
 * The progress bar of `civicgraph export` on a terminal's stderr, redrawn at most ten times
 * a second: `exporting [#########···········] 45% 90,120/200,000 rows`. Off a terminal it
 * stays silent (the summary on stdout says what was written).
 */
export function progressBar(out: NodeJS.WriteStream = process.stderr): {
  update: (written: number, total: number) => void;
  done: () => void;
} {
  if (!out.isTTY) return { update: () => {}, done: () => {} };
  const count = new Intl.NumberFormat('en-US');
  let last = 0;
  let drawn = false;
  return {
    update: (written, total) => {
      const now = Date.now();
      if (now - last < 100 && written !== total) return;
      last = now;
      drawn = true;
      out.write(`\r${barLine(written, total, count)}`);
    },
    done: () => {
      if (drawn) out.write('\n');
    },
  };
}

/** One line of the bar: 20 cells, the percentage, and the row counts. */
export function barLine(written: number, total: number, count = new Intl.NumberFormat('en-US')): string {
  const share = total === 0 ? 1 : Math.min(1, written / total);
  const cells = Math.round(share * 20);
  return `exporting [${'#'.repeat(cells)}${'·'.repeat(20 - cells)}] ${Math.floor(share * 100)}% ${count.format(written)}/${count.format(total)} rows`;
}
