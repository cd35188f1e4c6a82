import type { RunRecord } from '@civicgraph/ingest';

/**
 * What `up` shows while it loads the public sources: on a terminal, one line redrawn as
 * each source runs (`[3/12] fec-weball26: importing`, then `changed, 9,104 rows`); otherwise
 * a line per finished source. The owning service answers for a whole source at once, so a
 * running source shows no count.
 */
export function sourceProgress(total: number, out: NodeJS.WriteStream = process.stderr): (run: RunRecord) => void {
  const done = new Set<string>();
  const count = new Intl.NumberFormat('en-US');
  return (run) => {
    if (run.finishedAt !== null) done.add(run.id);
    const step = `[${Math.min(done.size + (run.finishedAt === null ? 1 : 0), total)}/${total}]`;
    const what =
      run.finishedAt === null
        ? 'importing'
        : run.status === 'failed'
          ? `failed: ${run.error}`
          : run.status === 'changed'
            ? `changed, ${count.format(run.progress)} rows`
            : run.status;
    const line = `loading public sources ${step} ${run.source}: ${what}`;
    if (out.isTTY)
      out.write(
        `\r${line.slice(0, (out.columns ?? 100) - 1).padEnd((out.columns ?? 100) - 1)}${run.finishedAt !== null && done.size === total ? '\n' : ''}`,
      );
    else if (run.finishedAt !== null) out.write(`${line}\n`);
  };
}
