// The webhooks section of BENCHMARKS.md.
import { cpus } from 'node:os';
import { writeSection } from '../lib/section.mjs';

const int = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const yes = (ok) => (ok ? '**met**' : '**not met**');

export function writeWebhooksSection(path, run) {
  const { paced, burst, raw } = run;
  writeSection(
    path,
    'webhooks',
    [
      `## Webhooks (\`npm run bench:webhooks\`, ${run.date})`,
      '',
      `A data change committed by the graph writer → the outbox relay (polling every 200 ms) → NATS JetStream → the dispatcher's durable consumer → the delivery log → a signed POST to a receiver on loopback that verifies every signature with the \`standardwebhooks\` package. One process for graph, dispatcher and receiver, on ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}); NATS at ${run.config.natsUrl}.`,
      '',
      '| target | this run | |',
      '|---|---|---|',
      `| data change → signed delivery, p99 ≤ 1 s at ${run.config.rate} changes/s | p99 **${int.format(paced.p99)} ms**, p50 ${int.format(paced.p50)} ms, max ${int.format(paced.max)} ms over ${int.format(paced.n)} of ${int.format(paced.sent)} changes (${run.config.seconds} s) | ${yes(paced.p99 <= 1000 && paced.n === paced.sent)} |`,
      `| deliveries/s at saturation, beside the raw JetStream publish rate (same run) | **${int.format(burst.deliveriesPerSecond)} deliveries/s** (${int.format(burst.n)} changes written at ${int.format(burst.writesPerSecond)}/s in batches of 50); raw JetStream publish ${int.format(raw.sequential)}/s awaited one by one, ${int.format(raw.pipelined)}/s 64 in flight | reported |`,
      `| every delivery verifies | ${run.signatureFailures === 0 ? 'all' : `${run.signatureFailures} failed`} | ${yes(run.signatureFailures === 0)} |`,
      '',
      "The paced p50 is mostly the relay's poll interval (a change waits up to 200 ms to be published); a receiver counts an event at its first arrival. At saturation the dispatcher takes events one at a time from its durable consumer and writes every delivery to the log (flushed) before and after its attempt; where the time goes between those has not been profiled yet.",
    ].join('\n'),
  );
}
