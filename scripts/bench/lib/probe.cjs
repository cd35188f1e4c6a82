// Preloaded into a server process under benchmark (`node --require probe.cjs …`, with an IPC
// channel): answers the benchmark's messages with what only that process can see, so every
// server is measured in its own process, whichever process runs the load or the report.
//   {probe: 'start'}  → starts event-loop delay, GC pause and CPU accounting; replies {probe: 'started'}
//   {probe: 'stop'}   → replies {probe: 'stats', stats: {loopDelayP99ms, gc: {…}, cpuUs: {user, system}, maxRssMb}} (the process's peak RSS so far)
//   {probe: 'gc'}     → collects garbage if the process runs with --expose-gc; replies {probe: 'collected'}
//   {probe: 'cpu'}    → replies {probe: 'cpu', cpuUs: process.cpuUsage()}
//   {probe: 'profile'} → starts V8's sampling CPU profiler (0.25 ms); replies {probe: 'profiling'}
//   {probe: 'profiled'} → stops it; replies {probe: 'profile', profile} (the .cpuprofile `node --cpu-prof` writes), or {probe: 'profile', error}
'use strict';
const { Session } = require('node:inspector');
const { constants, monitorEventLoopDelay, PerformanceObserver } = require('node:perf_hooks');

const GC_KINDS = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'scavenge',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'mark-compact',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental marking',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};

if (typeof process.send === 'function') {
  let delay;
  let pauses = [];
  let cpuAtStart;
  let profiler;
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      pauses.push({ ms: e.duration, kind: GC_KINDS[e.detail?.kind] ?? String(e.detail?.kind) });
  });

  const summary = () => {
    const long = {};
    for (const p of pauses) if (p.ms > 15) long[p.kind] = (long[p.kind] ?? 0) + 1;
    return {
      pauses: pauses.length,
      maxMs: Math.max(0, ...pauses.map((p) => p.ms)),
      totalMs: pauses.reduce((a, p) => a + p.ms, 0),
      over15ms: pauses.filter((p) => p.ms > 15).length,
      long,
    };
  };

  process.on('message', (m) => {
    if (m === null || typeof m !== 'object' || typeof m.probe !== 'string') return;
    if (m.probe === 'start') {
      delay = monitorEventLoopDelay({ resolution: 5 });
      delay.enable();
      pauses = [];
      observer.observe({ entryTypes: ['gc'] });
      cpuAtStart = process.cpuUsage();
      process.send({ probe: 'started' });
    } else if (m.probe === 'stop') {
      for (const e of observer.takeRecords())
        pauses.push({ ms: e.duration, kind: GC_KINDS[e.detail?.kind] ?? String(e.detail?.kind) });
      observer.disconnect();
      delay?.disable();
      process.send({
        probe: 'stats',
        stats: {
          loopDelayP99ms: (delay?.percentile(99) ?? 0) / 1e6,
          gc: summary(),
          cpuUs: process.cpuUsage(cpuAtStart),
          maxRssMb: process.resourceUsage().maxRSS / 1024,
        },
      });
    } else if (m.probe === 'gc') {
      globalThis.gc?.();
      process.send({ probe: 'collected' });
    } else if (m.probe === 'cpu') {
      process.send({ probe: 'cpu', cpuUs: process.cpuUsage() });
    } else if (m.probe === 'profile') {
      profiler = new Session();
      profiler.connect();
      profiler.post('Profiler.enable', () =>
        profiler.post('Profiler.setSamplingInterval', { interval: 250 }, () =>
          profiler.post('Profiler.start', () => process.send({ probe: 'profiling' })),
        ),
      );
    } else if (m.probe === 'profiled') {
      profiler.post('Profiler.stop', (err, result) => {
        profiler.disconnect();
        process.send(err ? { probe: 'profile', error: err.message } : { probe: 'profile', profile: result.profile });
      });
    }
  });
  // The channel must not keep a server alive that would otherwise exit.
  process.channel?.unref();
}
