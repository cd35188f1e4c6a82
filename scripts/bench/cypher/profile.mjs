// Where civicgraph's time goes: one run of a query under V8's sampling profiler (the same
// profile `node --cpu-prof` writes), saved as a .cpuprofile and summarised by self time.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { SourceMap } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Profiles one call of `once` (0.25 ms sampling), writes the profile to `file`; the top functions by self time. */
export async function profiled(once, file, top = 12) {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 250 });
    await session.post('Profiler.start');
    await once();
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(file, JSON.stringify(profile));
    return selfTimes(profile, top);
  } finally {
    session.disconnect();
  }
}

/** Self time per function (name, file:line), summed over the profile's nodes, largest first. */
function selfTimes(profile, top) {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map();
  // Sample i's stack ran until sample i + 1 (DevTools' reading); the first delta is the
  // profiler's own start-up, before any sample, and is left out.
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0)));
  const byFunction = new Map();
  let totalUs = 0;
  for (const [id, us] of selfUs) {
    const f = byNode.get(id).callFrame;
    const where = f.url === '' ? '' : sourceOf(f.url, f.lineNumber, f.columnNumber);
    const key = `${f.functionName || '(anonymous)'}\t${where}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
    totalUs += us;
  }
  const functions = [...byFunction]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([key, us]) => {
      const [name, where] = key.split('\t');
      return { name, where, ms: us / 1000, share: us / totalUs };
    });
  return { totalMs: totalUs / 1000, functions };
}

const maps = new Map();

/** `file:line` from the repository root (line and column 0-based), in the TypeScript source when the compiled file has a source map. */
export function sourceOf(url, line, column) {
  if (!url.startsWith('file://')) return `${url}:${line + 1}`;
  const file = fileURLToPath(url);
  if (!maps.has(file))
    maps.set(file, existsSync(`${file}.map`) ? new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8'))) : null);
  const entry = maps.get(file)?.findEntry(line, column);
  if (entry?.originalSource === undefined) return `${relative(ROOT, file)}:${line + 1}`;
  const source = entry.originalSource.startsWith('file://')
    ? fileURLToPath(entry.originalSource)
    : join(dirname(file), entry.originalSource);
  return `${relative(ROOT, source)}:${entry.originalLine + 1}`;
}
