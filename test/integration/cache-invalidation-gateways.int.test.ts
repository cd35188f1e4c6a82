import { afterAll, beforeAll, expect, it } from 'vitest';
import { probeNats, serviceAvailability } from '@civicgraph/kit';
import { describeWithService, scaled } from '@civicgraph/kit/testing';
import { get, graphql, startStack, type Stack } from '../harness/stack.js';
import { DEMO_REGIONS as REGIONS, DEMO_TODAY as TODAY, NEXT_GENERAL } from '../harness/demo.js';

/**
 * Every gateway drops exactly what a data-change event touches: two gateways, each with its
 * own caches and its own NATS connection, hold REST and GraphQL answers about a Colorado
 * contest and about Delaware; a Colorado candidacy withdraws; both gateways answer the new
 * state for the contest, and keep serving Delaware from their caches.
 */

const natsUrl = process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222';
const nats = await serviceAvailability(`NATS at ${natsUrl}`, () => probeNats(natsUrl));

describeWithService('cache invalidation across two gateways over NATS JetStream', nats, () => {
  let s: Stack;
  let urls: string[];

  beforeAll(async () => {
    s = await startStack({ natsUrl, env: `c${Date.now().toString(36)}`, demo: { regions: REGIONS, today: TODAY } });
    urls = [s.url, (await s.addGateway()).url];
    // The demo's own creation events drop caches as they arrive: let them all be relayed first.
    await s.graph.drainOutbox();
  }, scaled(60_000));
  afterAll(() => s?.stop());

  const CONTESTS_OF =
    'query($state: StateCode!) { contests(state: $state) { slug candidacies { slug filingStatus } } }';

  it(
    'drops the touched answers at both gateways, REST and GraphQL, and keeps every other',
    async () => {
      const key = await s.key();
      const slug = (await get(`${s.url}/v1/contests?state=co&date=${NEXT_GENERAL}&level=state`, key)).body.data[0].slug;
      const touched = `/v1/contests/${encodeURIComponent(slug)}`;
      const contest = (await get(`${s.url}${touched}`, key)).body;
      const candidacy = contest.candidacies.find((c: any) => c.filing_status !== 'WITHDRAWN');
      const untouched = [`/v1/contests?state=de&date=${NEXT_GENERAL}`, `/v1/election_dates?state=de`];
      const statusAt = async (url: string) =>
        (await get(`${url}${touched}`, key)).body.candidacies.find((c: any) => c.slug === candidacy.slug).filing_status;
      const gqlStatusAt = async (url: string) =>
        (await graphql(url, key, CONTESTS_OF, { state: 'CO' })).body.data.contests
          .find((c: any) => c.slug === contest.slug)
          .candidacies.find((c: any) => c.slug === candidacy.slug).filingStatus;

      for (const url of urls) {
        for (const path of [touched, ...untouched]) {
          await get(`${url}${path}`, key);
          await expect
            .poll(async () => (await get(`${url}${path}`, key)).headers.get('civic-cache'), { timeout: scaled(5_000) })
            .toBe('hit');
        }
        await graphql(url, key, CONTESTS_OF, { state: 'DE' });
        expect((await graphql(url, key, CONTESTS_OF, { state: 'DE' })).headers.get('civic-cache')).toBe('hit');
        expect(await gqlStatusAt(url)).toBe(candidacy.filing_status);
      }

      await s.graph.writer.moveCandidacy(
        candidacy.slug,
        { filingStatus: 'WITHDRAWN' },
        'provenance:demo-synthetic-registry',
      );

      for (const url of urls) {
        await expect.poll(() => statusAt(url), { timeout: scaled(5_000), interval: 20 }).toBe('WITHDRAWN');
        await expect.poll(() => gqlStatusAt(url), { timeout: scaled(5_000), interval: 20 }).toBe('WITHDRAWN');
      }
      for (const url of urls) {
        for (const path of untouched)
          expect((await get(`${url}${path}`, key)).headers.get('civic-cache'), `${url}${path}`).toBe('hit');
        expect(
          (await graphql(url, key, CONTESTS_OF, { state: 'DE' })).headers.get('civic-cache'),
          `${url} graphql DE`,
        ).toBe('hit');
      }
    },
    scaled(60_000),
  );
});
