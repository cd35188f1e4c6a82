// Where a server's time went, by what code ran it: a V8 .cpuprofile's samples summed per
// category — a civicgraph service (services/<name>), the generated protobuf code, an npm
// package, a Node.js core module — plus V8's own (garbage collector), (program) and (idle).
// A builtin without a source (JSON.stringify, a native binding) counts for the code that
// called it, so a category is what that code cost, whoever did the work.

/** The category of one profile node's own code; undefined for a builtin without a source. */
function categoryOf(frame) {
  const url = frame.url;
  if (url === '') return frame.functionName.startsWith('(') ? frame.functionName : undefined;
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return `npm ${pkg[1]}`;
  const service = url.match(/\/services\/([^/]+)\//);
  if (service) return `civicgraph ${service[1]}`;
  if (url.includes('/protos/')) return 'civicgraph protos (generated)';
  const core = url.match(/^node:(?:internal\/)?([^/]+)/);
  if (core) return `node:${core[1]}`;
  return url;
}

/**
 * Milliseconds per category over the profile, largest first, and the total; `(idle)` is kept
 * apart from the busy total. Sample i's stack ran until sample i + 1 (DevTools' reading).
 */
export function timeByCategory(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const own = new Map();
  const categoryOfNode = (id) => {
    if (own.has(id)) return own.get(id);
    let c = categoryOf(byId.get(id).callFrame);
    if (c === undefined) c = parent.has(id) ? categoryOfNode(parent.get(id)) : '(native)';
    own.set(id, c);
    return c;
  };
  const us = new Map();
  profile.samples.forEach((id, i) => {
    const c = categoryOfNode(id);
    us.set(c, (us.get(c) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
  });
  const idleMs = (us.get('(idle)') ?? 0) / 1000;
  us.delete('(idle)');
  const categories = [...us].map(([name, t]) => ({ name, ms: t / 1000 })).sort((a, b) => b.ms - a.ms);
  return { busyMs: categories.reduce((a, c) => a + c.ms, 0), idleMs, categories };
}
