/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { Plan } from '@civicgraph/protos/civic/auth/v1/auth';
import { scaled } from '@civicgraph/kit/testing';
import { buildWeb } from '../../services/gateway/web/build.mjs';
import { artifact, launchBrowser } from '../harness/browser.js';
import { preparedMaps } from '../harness/prepared-maps.js';
import { loadSources, MAP_SOURCES_WITHOUT_TIGER } from '../harness/sources.js';
import { get, startStack, type Stack } from '../harness/stack.js';

// The ballot explorer (/explore) and the widget, in Debian's Chromium, over a real stack fed
// Colorado from the shared public data: the 2024 certified returns (contests, candidates,
// ballot measures), members of Congress and the legislature, and the district maps. The
// congressional map is the 119th Congress's alone, so around 2025-01-03 CO-1 goes from
// electing only (on election day 2024) to serving and electing: the date control's case.

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const SOURCES = ['ocd-division-ids', 'congress-legislators', 'openstates-people', 'medsl-co24'];
/** The maps: cd119-20m, co-sldu-2021 and co-sldl-2021, from the run's prepared copy. */
const MAPS = MAP_SOURCES_WITHOUT_TIGER;
const DENVER = '39.7392,-104.9903';
const ELECTION_DAY = '2024-11-05';
const AFTER = '2025-06-01';

let stack: Stack;
let key: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let other: Server;
let otherUrl: string;

interface Api {
  districts: { slug: string; name: string; roles: string[] }[];
  ballot: {
    contests: {
      slug: string;
      choices: unknown[];
      candidacies: {
        slug: string;
        is_incumbent: boolean | null;
        provenance: { url: string | null }[];
        field_confidence: unknown[];
      }[];
    }[];
  };
}

/** What the API says at a point on a date: what the page must draw and list. */
async function api(point: string, date: string): Promise<Api> {
  const [lat, lng] = point.split(',');
  const districts = await get(`${stack.url}/v1/districts_by_point?lat=${lat}&lng=${lng}&date=${date}`, key);
  const ballot = await get(`${stack.url}/v1/ballot?lat=${lat}&lng=${lng}&date=${date}`, key);
  expect(districts.status).toBe(200);
  expect(ballot.status).toBe(200);
  return { districts: districts.body.data, ballot: ballot.body };
}

/** Waits until the explorer (in `root`: the page, or the widget's host) has finished a lookup. */
async function settled(p: Page, root = '.cg-explorer') {
  await p.locator(`${root}[data-state="ready"], ${root}[data-state="error"]`).first().waitFor();
  const error = await p.locator('.cg-error').first().textContent();
  expect(error ?? '').toBe('');
}

/** What the page drew and listed. */
async function drawn(p: Page) {
  return p.evaluate(() => {
    const all = (sel: string, attr: string) =>
      [...document.querySelectorAll(sel)].map((e) => e.getAttribute(attr) ?? '').sort();
    return {
      paths: [...document.querySelectorAll('path.cg-district')].map((e) => ({
        slug: e.getAttribute('data-slug'),
        roles: e.getAttribute('data-roles'),
        d: (e.getAttribute('d') ?? '').length,
      })),
      labels: [...document.querySelectorAll('text.cg-label')].map((e) => e.textContent),
      legend: [...document.querySelectorAll('.cg-legend li')].map((e) => ({
        slug: e.getAttribute('data-slug'),
        roles: e.getAttribute('data-roles'),
      })),
      contests: all('.cg-contest', 'data-slug'),
      candidacies: all('.cg-candidacy', 'data-slug'),
      incumbents: document.querySelectorAll('.cg-incumbent').length,
      measures: document.querySelectorAll('.cg-measure').length,
      choices: [...document.querySelectorAll('.cg-measure .cg-choice')].map((e) => e.textContent),
      meters: document.querySelectorAll('.cg-candidate-line meter').length,
      fieldRows: document.querySelectorAll('.cg-sources li[data-field] meter').length,
      sourceLinks: [...document.querySelectorAll('.cg-candidacy a.cg-source')].map((e) => e.getAttribute('href')),
      point: document.querySelector('.cg-explorer')?.getAttribute('data-point'),
      status: document.querySelector('.cg-status')?.textContent ?? '',
    };
  });
}

/** axe-core's verdict on the page as it stands (every rule axe runs by default, WCAG 2.x A and AA among them). */
async function axe(p: Page) {
  await p.evaluate(AXE);
  return p.evaluate(async () => {
    const w = window as unknown as {
      axe: { run(ctx: Document): Promise<{ violations: { id: string; nodes: { target: unknown }[] }[] }> };
    };
    const r = await w.axe.run(document);
    return r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(' ')}`);
  });
}

beforeAll(async () => {
  await buildWeb(); // the bundles `npm run build` makes, fresh even when this file runs alone
  const [started, launched] = await Promise.all([
    preparedMaps(MAPS).then((seed) => startStack({ seed })),
    launchBrowser(),
  ]);
  stack = started;
  browser = launched;
  await loadSources(stack, SOURCES);
  key = await stack.key({ plan: Plan.PLAN_ENTERPRISE, rateLimitPerMinute: 100_000 });
  // Another origin (another port) holding the widget's one script tag, as a newsroom's page would.
  other = createServer((_req, res) => {
    res.setHeader('Content-Type', 'text/html');
    res.end(`<!doctype html><html lang="en"><head><title>A newsroom</title></head><body><main><h1>Your ballot</h1>
<script src="${stack.url}/explore/widget.js" data-key="${key}" data-date="${ELECTION_DAY}" data-officeholders="false" async></script>
</main></body></html>`);
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  otherUrl = `http://localhost:${(other.address() as AddressInfo).port}/`;
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(scaled(10_000));
  page = await context.newPage();
}, scaled(240_000));

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (other === undefined ? resolve(undefined) : other.close(resolve)));
  await stack?.stop();
});

describe('/explore in Chromium', () => {
  it('loads with the base map drawn, from this origin only, and keeps the pasted key in session storage', async () => {
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    const res = await page.goto(`${stack.url}/explore`);
    const loadedMs = await page.waitForFunction(
      () =>
        document.querySelector('.cg-explorer[data-atlas="ready"] path.cg-state-lines') !== null && performance.now(),
    );
    console.info(
      `explore: the page and its base map were ready ${Math.round(Number(await loadedMs.jsonValue()))} ms after navigation`,
    );
    expect(await page.locator('path.cg-state-lines').getAttribute('d')).toMatch(/^M/);
    expect(requests.every((u) => u.startsWith(stack.url))).toBe(true);
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Use key' }).click();
    expect(await page.evaluate(() => sessionStorage.getItem('civicgraph.key'))).toBe(key);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
  });

  it('draws the districts at a typed "lat,lng", labelled, and lists the ballot with its sources and the officeholders', async () => {
    await page.getByLabel('Date', { exact: true }).fill(ELECTION_DAY);
    await page.getByLabel('Address, ZIP or lat,lng').fill(DENVER);
    await page.getByRole('button', { name: 'Look up' }).click();
    await settled(page);
    const want = await api(DENVER, ELECTION_DAY);
    const got = await drawn(page);
    await page.screenshot({ path: artifact('explore', 'denver-2024-11-05.png') });
    await page.screenshot({ path: artifact('explore', 'denver-2024-11-05-full.png'), fullPage: true });

    expect(got.paths.map((p) => p.slug).sort()).toEqual(want.districts.map((d) => d.slug).sort());
    expect(got.paths.every((p) => p.d > 0)).toBe(true);
    expect(got.paths.find((p) => p.slug === 'region:co-denver-county')?.d).toBeGreaterThan(200);
    // One label per district, naming its level and its name.
    expect(got.labels.length).toBe(want.districts.length);
    expect(got.labels).toContain('County: Denver County');
    expect(got.labels).toContain('Congressional district: Colorado Congressional District 1');
    for (const d of want.districts) expect(got.labels.some((l) => l?.endsWith(`: ${d.name}`))).toBe(true);
    // The base map's county lines, loaded once the view zoomed in.
    await page.waitForFunction(() => (document.querySelector('path.cg-county-lines')?.getAttribute('d') ?? '') !== '');
    // On election day 2024 the 119th Congress's map elects but does not serve yet.
    expect(got.paths.find((p) => p.slug === 'region:co-cd-1')?.roles).toBe('electing');

    expect(got.contests).toEqual(want.ballot.contests.map((c) => c.slug).sort());
    expect(got.candidacies).toEqual(want.ballot.contests.flatMap((c) => c.candidacies.map((x) => x.slug)).sort());
    expect(got.contests.length).toBeGreaterThan(20);
    expect(got.incumbents).toBe(
      want.ballot.contests.flatMap((c) => c.candidacies).filter((x) => x.is_incumbent === true).length,
    );
    const measures = want.ballot.contests.filter((c) => c.choices.length > 0 && c.candidacies.length === 0);
    expect(got.measures).toBe(measures.length);
    expect(got.measures).toBeGreaterThan(0);
    expect(new Set(got.choices)).toEqual(new Set(['Yes', 'No']));
    // Confidence drawn per candidacy, and per field beside the field's sources.
    expect(got.meters).toBe(got.candidacies.length);
    expect(got.fieldRows).toBe(
      want.ballot.contests.flatMap((c) => c.candidacies).reduce((n, x) => n + x.field_confidence.length, 0),
    );
    const urls = new Set(
      want.ballot.contests.flatMap((c) => c.candidacies.flatMap((x) => x.provenance.map((p) => p.url))),
    );
    expect(got.sourceLinks.length).toBeGreaterThan(0);
    for (const href of got.sourceLinks) expect(urls).toContain(href);

    const president = page.locator('.cg-contest', { has: page.getByRole('heading', { name: 'President' }) });
    await expect
      .poll(() => president.locator('.cg-person').allTextContents())
      .toContainEqual(expect.stringMatching(/Harris/i));
    const rep = await get(`${stack.url}/v1/officeholders?region=region:co-cd-1&date=${ELECTION_DAY}`, key);
    const cd1 = page.locator('.cg-officeholders section[data-slug="region:co-cd-1"] .cg-person');
    expect(await cd1.allTextContents()).toEqual(rep.body.data.map((o: { person: string }) => o.person));
    expect(rep.body.data.length).toBeGreaterThan(0);
    expect(new URL(page.url()).searchParams.get('q')).toBe(DENVER);
  });

  it('marks an incumbent candidacy (the 2024 returns name none, so one answer is marked on its way to the page)', async () => {
    let marked = '';
    await page.route('**/v1/ballot?**', async (route) => {
      const response = await route.fetch();
      const body = await response.json();
      const candidacy = body.contests.find((c: { candidacies: unknown[] }) => c.candidacies.length > 0).candidacies[0];
      candidacy.is_incumbent = true;
      marked = candidacy.slug;
      await route.fulfill({ response, json: body });
    });
    await page.getByRole('button', { name: 'Look up' }).click();
    await page.locator('.cg-incumbent').first().waitFor();
    await settled(page);
    await page.unroute('**/v1/ballot?**');
    expect(await page.locator('.cg-incumbent').count()).toBe(1);
    expect(await page.locator(`.cg-candidacy[data-slug="${marked}"] .cg-incumbent`).textContent()).toBe('Incumbent');
  });

  it('finds no accessibility violations with axe-core, the ballot and its sources open', async () => {
    await page.locator('details.cg-sources').first().locator('summary').click();
    expect(await axe(page)).toEqual([]);
  });

  it('redraws the districts serving and electing on another date, as the API answers', async () => {
    await page.getByLabel('Date', { exact: true }).fill(AFTER);
    await page.getByLabel('Date', { exact: true }).dispatchEvent('change');
    await page.locator(`.cg-ballot[data-date="${AFTER}"]`).waitFor();
    await settled(page);
    const want = await api(DENVER, AFTER);
    const got = await drawn(page);
    await page.screenshot({ path: artifact('explore', `denver-${AFTER}.png`) });
    expect(got.paths.find((p) => p.slug === 'region:co-cd-1')?.roles).toBe('serving electing');
    expect(got.legend).toEqual(
      want.districts.map((d) => ({ slug: d.slug, roles: d.roles.join(' ') })).sort(byOrderIn(got.legend)),
    );
    expect(got.contests).toEqual(want.ballot.contests.map((c) => c.slug).sort());
  });

  it('looks up the point clicked on the map and draws what the API finds there', async () => {
    const before = (await drawn(page)).point;
    const box = (await page.locator('.cg-map svg').boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.2, box.y + box.height * 0.75);
    await page.waitForFunction((p) => document.querySelector('.cg-explorer')?.getAttribute('data-point') !== p, before);
    await settled(page);
    const got = await drawn(page);
    const want = await api(got.point!, AFTER);
    expect(await page.getByLabel('Address, ZIP or lat,lng').inputValue()).toBe(got.point);
    expect(got.paths.map((p) => p.slug).sort()).toEqual(want.districts.map((d) => d.slug).sort());
    // The marker sits where the click was (the click became the point, and the point was drawn there).
    const marker = (await page.locator('circle.cg-marker').boundingBox())!;
    const mapBox = (await page.locator('.cg-map svg').boundingBox())!;
    expect(Math.abs(marker.x + marker.width / 2 - (mapBox.x + mapBox.width * 0.2))).toBeLessThan(mapBox.width * 0.05);
    expect(Math.abs(marker.y + marker.height / 2 - (mapBox.y + mapBox.height * 0.75))).toBeLessThan(
      mapBox.height * 0.05,
    );
  });

  it('geocodes a ZIP code, says the place is approximate, and takes an election day from the picker', async () => {
    await page.getByLabel('Address, ZIP or lat,lng').fill('80202');
    // The picker lists the state's election days, past ones included (the API lists from today by default).
    const days = await page
      .getByLabel('Election day')
      .locator('option')
      .evaluateAll((os) => os.map((o) => o.getAttribute('value')));
    expect(days).toContain(ELECTION_DAY);
    await page.getByLabel('Election day').selectOption(ELECTION_DAY);
    await page.waitForFunction(() => document.querySelector('.cg-status')?.textContent?.includes('80202'));
    expect(await page.getByLabel('Date', { exact: true }).inputValue()).toBe(ELECTION_DAY);
    await settled(page);
    const got = await drawn(page);
    expect(got.status).toMatch(/80202 \(Denver, CO\).*approximate/);
    expect(got.paths.map((p) => p.slug)).toContain('region:co-denver-county');
    expect(got.contests.length).toBeGreaterThan(20);
  });

  it('works by keyboard alone: the key, the box, the date and the map', async () => {
    const kb = await context.newPage();
    await kb.goto(`${stack.url}/explore`);
    await kb.locator('.cg-explorer[data-atlas="ready"]').waitFor();
    const tabTo = async (test: string) => {
      for (let i = 0; i < 12; i += 1) {
        await kb.keyboard.press('Tab');
        if (await kb.evaluate((t) => document.activeElement?.matches(t) ?? false, test)) return;
      }
      throw new Error(`Tab never reached ${test}`);
    };
    await tabTo('#cg-key');
    expect(await kb.locator('#cg-key').inputValue()).toBe(''); // session storage is the tab's own
    await kb.keyboard.type(key);
    await kb.keyboard.press('Enter');
    await tabTo('input[name="q"]');
    await kb.keyboard.type(DENVER);
    await kb.keyboard.press('Tab');
    await kb.keyboard.type('11052024'); // a date input takes the digits in the locale's order (en-US: mm/dd/yyyy)
    await kb.keyboard.press('Enter');
    await settled(kb);
    expect((await drawn(kb)).contests.length).toBeGreaterThan(20);
    await tabTo('.cg-map');
    const before = (await drawn(kb)).point;
    expect(await kb.locator('path.cg-cursor').count()).toBe(1);
    for (let i = 0; i < 4; i += 1) await kb.keyboard.press('Shift+ArrowRight');
    await kb.keyboard.press('Enter');
    await kb.waitForFunction((p) => document.querySelector('.cg-explorer')?.getAttribute('data-point') !== p, before);
    await settled(kb);
    const [, lngBefore] = before!.split(',').map(Number);
    const [, lngAfter] = (await drawn(kb)).point!.split(',').map(Number);
    expect(lngAfter!).toBeGreaterThan(lngBefore!); // the cross moved east
    await kb.close();
  });

  it('loads in a fresh tab, cold cache, to a drawn base map (the time is reported, not asserted)', async () => {
    const times: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const fresh = await browser.newContext();
      const p = await fresh.newPage();
      await p.goto(`${stack.url}/explore`);
      const ready = await p.waitForFunction(
        () =>
          document.querySelector('.cg-explorer[data-atlas="ready"] path.cg-state-lines') !== null && performance.now(),
      );
      times.push(Math.round(Number(await ready.jsonValue())));
      await fresh.close();
    }
    console.info(`explore: cold loads to a drawn base map took ${times.join(', ')} ms after navigation`);
    expect(times.every((t) => t > 0)).toBe(true);
  });

  it('fits a phone: no sideways scrolling, and still no axe-core violations', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const p = await phone.newPage();
    await p.goto(`${stack.url}/explore?q=${DENVER}&date=${ELECTION_DAY}`);
    await p.evaluate((k) => sessionStorage.setItem('civicgraph.key', k), key);
    await p.reload();
    await settled(p);
    await p.screenshot({ path: artifact('explore', 'phone.png') });
    await p.screenshot({ path: artifact('explore', 'phone-full.png'), fullPage: true });
    const widths = await p.evaluate(() => ({ scroll: document.documentElement.scrollWidth, view: window.innerWidth }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.view);
    expect((await drawn(p)).contests.length).toBeGreaterThan(20);
    expect(await axe(p)).toEqual([]);
    await phone.close();
  });
});

describe('the widget, embedded by one script tag on another origin', () => {
  it('answers preflights for any origin, without credentials', async () => {
    const res = await fetch(`${stack.url}/v1/ballot`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://news.example',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'authorization',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    const admin = await fetch(`${stack.url}/admin/v1/keys`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://news.example' },
    });
    expect(admin.headers.get('access-control-allow-origin')).toBeNull();
  });

  it("shows the ballot of the place typed into it, asking the gateway's API across origins", async () => {
    const w = await context.newPage();
    const failures: string[] = [];
    w.on('console', (m) => m.type() === 'error' && failures.push(m.text()));
    w.on('requestfailed', (r) => failures.push(`${r.url()}: ${r.failure()?.errorText}`));
    await w.goto(otherUrl);
    expect(new URL(w.url()).origin).not.toBe(new URL(stack.url).origin);
    // Playwright's locators pierce the widget's (open) shadow root.
    await w.locator('.cg-explorer[data-atlas="ready"]').waitFor();
    await w.getByLabel('Address, ZIP or lat,lng').fill(DENVER);
    await w.getByRole('button', { name: 'Look up' }).click();
    await settled(w);
    await w.screenshot({ path: artifact('explore', 'widget-other-origin.png') });
    const want = await api(DENVER, ELECTION_DAY);
    const contests = await w.locator('.cg-contest').evaluateAll((els) => els.map((e) => e.getAttribute('data-slug')));
    expect(contests.sort()).toEqual(want.ballot.contests.map((c) => c.slug).sort());
    const paths = await w.locator('path.cg-district').evaluateAll((els) => els.map((e) => e.getAttribute('data-slug')));
    expect(paths.sort()).toEqual(want.districts.map((d) => d.slug).sort());
    expect(await w.locator('.cg-holders-section').count()).toBe(0); // data-officeholders="false"
    expect(failures).toEqual([]);
    await w.close();
  });
});

/** Sorts expected rows in the order the page listed them (the page orders by level; the API by its own rule). */
function byOrderIn(listed: { slug: string | null }[]) {
  const at = new Map(listed.map((l, i) => [l.slug, i]));
  return (a: { slug: string }, b: { slug: string }) => (at.get(a.slug) ?? 99) - (at.get(b.slug) ?? 99);
}
