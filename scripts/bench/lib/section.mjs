// BENCHMARKS.md is shared by every benchmark: each owns the block between its markers.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/** Replaces the block between `<!-- bench:<name>:start/end -->`, or appends it when absent. */
export function writeSection(path, name, section) {
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  const block = `${start}\n${section}\n${end}`;
  const old = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const a = old.indexOf(start);
  const b = old.indexOf(end);
  const next =
    a >= 0 && b > a
      ? old.slice(0, a) + block + old.slice(b + end.length)
      : `${old}${old === '' || old.endsWith('\n\n') ? '' : old.endsWith('\n') ? '\n' : '\n\n'}${block}\n`;
  writeFileSync(path, next);
}
