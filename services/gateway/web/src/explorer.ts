import {
  ApiError,
  type Api,
  type Ballot,
  type BoundaryFeature,
  type District,
  type DistrictsAnswer,
  type ElectionDate,
  type Officeholder,
  type Point,
} from './api.js';
import { ballotView } from './ballot.js';
import { h, uid } from './dom.js';
import { rewind, simplifyFor } from './geometry.js';
import { byLevel, levelColour, levelLabel } from './levels.js';
import { BallotMap, type DrawnDistrict } from './map.js';
import { officeholdersView } from './officeholders.js';
import { formatPoint, parseLatLng } from './point-input.js';

export interface ExplorerOptions {
  api: Api;
  /** Where us-atlas's states and counties are served (the gateway's /explore/assets). */
  atlasBase: string;
  query?: string;
  date?: string;
  /** Heading level of the section headings (the page uses 2 under its h1; the widget 3 inside a host's article). */
  headingLevel?: 2 | 3;
  /** Lists who holds the districts' offices (the page does; a widget may leave it out). */
  officeholders?: boolean;
  /** Called after each lookup with what it looked up (the page keeps it in its address). */
  onLookup?: (query: string, date: string) => void;
}

/** Today in the reader's time zone, as the API writes dates. */
export function today(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** Election days are listed from here (the API's default is today): the explorer looks back as well as forward. */
const PAST = '2000-01-01';

const ROLE_NOTES: Record<string, string> = {
  'serving electing': 'serving and electing',
  serving: 'serving only: its members serve now; elections on this date use another map',
  electing: 'electing only: elections on this date use it; its members are not seated yet',
};

/**
 * The explorer: a search box (address, ZIP or "lat,lng") and a date, the map, the districts
 * with their roles on the date, the ballot, and the officeholders. The page and the widget
 * are both this component over the same REST API.
 */
export class Explorer {
  readonly element: HTMLElement;
  private readonly query: HTMLInputElement;
  private readonly date: HTMLInputElement;
  private readonly electionDays: HTMLSelectElement;
  private readonly status: HTMLElement;
  private readonly error: HTMLElement;
  private readonly legend: HTMLElement;
  private readonly ballot: HTMLElement;
  private readonly holders: HTMLElement | undefined;
  private readonly map: BallotMap;
  private run = 0;
  private state: string | undefined;

  constructor(private readonly options: ExplorerOptions) {
    const hl = options.headingLevel ?? 2;
    const heading = (text: string) => {
      const el = h(hl === 2 ? 'h2' : 'h3', { id: uid('cg-h') }, text);
      return el;
    };
    const queryId = uid('cg-q');
    const dateId = uid('cg-date');
    const daysId = uid('cg-days');
    this.query = h('input', {
      id: queryId,
      name: 'q',
      type: 'text',
      autocomplete: 'off',
      spellcheck: 'false',
      placeholder: '80202, Denver, CO or 39.7392,-104.9903',
      value: options.query ?? '',
    });
    this.date = h('input', { id: dateId, name: 'date', type: 'date', required: true, value: options.date ?? today() });
    this.electionDays = h(
      'select',
      { id: daysId, name: 'election_day' },
      h('option', { value: '' }, 'Look up a place first'),
    );
    const form = h(
      'form',
      { class: 'cg-lookup', role: 'search', 'aria-label': 'Look up a place' },
      h('div', { class: 'cg-field-q' }, h('label', { for: queryId }, 'Address, ZIP or lat,lng'), this.query),
      h('div', {}, h('label', { for: dateId }, 'Date'), this.date),
      h('div', {}, h('label', { for: daysId }, 'Election day'), this.electionDays),
      h('div', { class: 'cg-submit' }, h('button', { type: 'submit' }, 'Look up')),
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      void this.lookup();
    });
    this.date.addEventListener('change', () => {
      if (this.query.value.trim() !== '' && this.date.value !== '') void this.lookup();
    });
    this.electionDays.addEventListener('change', () => {
      if (this.electionDays.value === '') return;
      this.date.value = this.electionDays.value;
      void this.lookup();
    });
    this.status = h('p', { class: 'cg-status', role: 'status' });
    this.error = h('div', { class: 'cg-error', role: 'alert' });
    this.map = new BallotMap((p) => {
      this.query.value = formatPoint(p);
      void this.lookup();
    }, 'Map of the districts');
    this.legend = h('ul', { class: 'cg-legend', 'aria-label': 'Districts at the point' });
    this.ballot = h('div', { class: 'cg-ballot-list' });
    const mapHeading = heading('Districts');
    const ballotHeading = heading('Ballot');
    const sections = [
      h(
        'section',
        { class: 'cg-map-section', 'aria-labelledby': mapHeading.id },
        mapHeading,
        this.map.element,
        this.legend,
      ),
      h('section', { class: 'cg-ballot-section', 'aria-labelledby': ballotHeading.id }, ballotHeading, this.ballot),
    ];
    if (options.officeholders !== false) {
      const holdersHeading = heading('Officeholders');
      this.holders = h('div', { class: 'cg-holders-list' });
      sections.push(
        h(
          'section',
          { class: 'cg-holders-section', 'aria-labelledby': holdersHeading.id },
          holdersHeading,
          this.holders,
        ),
      );
    }
    this.element = h(
      'div',
      { class: 'cg-explorer', 'data-state': 'idle' },
      form,
      this.status,
      this.error,
      h('div', { class: 'cg-grid' }, ...sections),
    );
    void this.map.loadAtlas(options.atlasBase).then(
      () => this.element.setAttribute('data-atlas', 'ready'),
      (err: unknown) => this.fail(err),
    );
    if (this.query.value.trim() !== '') void this.lookup();
  }

  /** Looks up what the box holds on the date: districts, their outlines, the ballot, the officeholders. */
  async lookup(): Promise<void> {
    const run = ++this.run;
    const query = this.query.value.trim();
    const date = this.date.value;
    this.error.replaceChildren();
    if (query === '')
      return this.fail(new ApiError(400, 'invalid_parameter', 'address', 'Type an address, a ZIP code or "lat,lng".'));
    if (date === '') return this.fail(new ApiError(400, 'invalid_parameter', 'date', 'Choose a date.'));
    this.element.setAttribute('data-state', 'loading');
    this.status.textContent = `Looking up ${query} on ${date}…`;
    const api = this.options.api;
    try {
      const typed = parseLatLng(query);
      const found = await (typed !== undefined
        ? api.get<DistrictsAnswer>('/v1/districts_by_point', { lat: typed.lat, lng: typed.lng, date })
        : api.get<DistrictsAnswer>('/v1/districts_by_address', { address: query, date }));
      const point: Point = typed ?? found.geocode?.point ?? found.point ?? { lat: 0, lng: 0 };
      const districts = [...found.data].sort(byLevel);
      const [drawn, ballot, holders] = await Promise.all([
        this.outlines(districts, date),
        api.get<Ballot>('/v1/ballot', { lat: point.lat, lng: point.lng, date }),
        this.holders === undefined ? Promise.resolve([]) : this.officeholders(districts, date),
      ]);
      if (run !== this.run) return;
      this.map.show(point, drawn);
      this.renderLegend(districts);
      this.ballot.replaceChildren(ballotView(ballot));
      this.holders?.replaceChildren(officeholdersView(holders, date));
      const where =
        found.geocode === undefined ? formatPoint(point) : `${found.geocode.matched} (${formatPoint(point)})`;
      const approx =
        found.ambiguous === true ? ' The place is approximate: districts meeting its area are all listed.' : '';
      this.status.textContent = `${districts.length} districts at ${where} on ${date}.${approx}`;
      this.element.setAttribute('data-state', 'ready');
      this.element.setAttribute('data-point', formatPoint(point));
      this.options.onLookup?.(query, date);
      const state = districts.find((d) => d.level === 'state')?.slug.replace(/^region:/, '');
      if (state !== undefined && state !== this.state) void this.loadElectionDays(state);
    } catch (err) {
      if (run === this.run) this.fail(err);
    }
  }

  /** Each district's outline in force on the date, or, for a map that elects before it serves, its first version. */
  private async outlines(districts: District[], date: string): Promise<DrawnDistrict[]> {
    const drawn = await Promise.all(
      districts.map(async (district) => {
        const at = district.valid_from !== null && date < district.valid_from ? district.valid_from : date;
        const outline = await this.options.api.get<BoundaryFeature>(
          `/v1/regions/${encodeURIComponent(district.slug)}/boundary`,
          { date: at, simplify: simplifyFor(district.level) },
        );
        return { district, outline: rewind(outline) };
      }),
    );
    return drawn;
  }

  /** The terms in force on the date of each district's own offices (a state's list also names those of the regions in it). */
  private async officeholders(districts: District[], date: string) {
    return Promise.all(
      districts.map(async (district) => {
        const all = await this.options.api.all<Officeholder>('/v1/officeholders', { region: district.slug, date });
        return { district, holders: all.filter((o) => o.region === district.slug) };
      }),
    );
  }

  private async loadElectionDays(state: string): Promise<void> {
    try {
      const days = await this.options.api.all<ElectionDate>('/v1/election_dates', { state, from: PAST }, 2);
      this.state = state;
      const chosen = this.date.value;
      this.electionDays.replaceChildren(
        h('option', { value: '' }, days.length === 0 ? 'No election days known' : `${days.length} election days`),
        ...days.map((d) => h('option', { value: d.date, selected: d.date === chosen }, `${d.date} — ${d.name}`)),
      );
    } catch {
      // The picker is a convenience; the date box still works without it.
    }
  }

  private renderLegend(districts: District[]): void {
    this.legend.replaceChildren(
      ...districts.map((d) => {
        const swatch = h('span', {
          class: `cg-swatch${d.roles.includes('serving') ? '' : ' cg-electing-only'}`,
          'aria-hidden': 'true',
        });
        swatch.style.borderColor = levelColour(d.level);
        const roles = d.roles.join(' ');
        return h(
          'li',
          { 'data-slug': d.slug, 'data-roles': roles },
          swatch,
          h('span', { class: 'cg-level' }, `${levelLabel(d.level)}: `),
          h('span', { class: 'cg-name' }, d.name),
          ...d.roles.map((r) => h('span', { class: `cg-badge cg-role-${r}` }, r)),
          h('span', { class: 'cg-note' }, ROLE_NOTES[roles] ?? roles),
          d.share !== undefined && d.share < 1
            ? h('span', { class: 'cg-note' }, `${Math.round(d.share * 100)}% of the area`)
            : null,
        );
      }),
    );
  }

  private fail(err: unknown): void {
    this.element.setAttribute('data-state', 'error');
    this.status.textContent = '';
    const message =
      err instanceof ApiError
        ? `${err.message}${err.field === undefined ? '' : ` (${err.field})`}`
        : err instanceof Error
          ? err.message
          : String(err);
    this.error.replaceChildren(h('p', {}, message));
  }
}
