import { geoAlbersUsa, geoMercator, geoPath, type GeoProjection } from 'd3-geo';
import type { Feature, FeatureCollection, MultiLineString, MultiPolygon, Polygon } from 'geojson';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { District, Point } from './api.js';
import { s } from './dom.js';
import { byLevel, levelColour, levelLabel } from './levels.js';

/** The map's drawing space (the SVG's viewBox); CSS scales it to the column's width. */
const W = 960;
const H = 600;
const PAD = 20;
/** How far one arrow key moves the keyboard cursor, in drawing units (Shift: four times). */
const STEP = 12;

export interface DrawnDistrict {
  district: District;
  outline: Feature<Polygon | MultiPolygon>;
}

interface Atlas {
  nation: Feature | FeatureCollection;
  states: MultiLineString;
  counties: MultiLineString | undefined;
}

async function fetchTopology<K extends string>(url: string): Promise<Topology<Record<K, GeometryCollection>>> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`The base map did not load (${res.status}).`);
  return (await res.json()) as Topology<Record<K, GeometryCollection>>;
}

/**
 * The map: us-atlas's states and counties as the base, the districts containing the chosen
 * point over it, each outlined in its level's colour and labelled with level and name.
 * A click, or the arrow keys and Enter, choose a new point (`onPick`).
 */
export class BallotMap {
  readonly element: HTMLDivElement;
  private readonly svg: SVGSVGElement;
  private readonly baseLayer: SVGGElement;
  private readonly districtLayer: SVGGElement;
  private readonly labelLayer: SVGGElement;
  private readonly pointLayer: SVGGElement;
  private projection: GeoProjection = geoAlbersUsa()
    .scale(1280)
    .translate([W / 2, H / 2]);
  private atlas: Atlas | undefined;
  private atlasBase: string | undefined;
  private countiesLoading: Promise<void> | undefined;
  private drawn: DrawnDistrict[] = [];
  private point: Point | undefined;
  private cursor: [number, number] | undefined;

  constructor(
    private readonly onPick: (p: Point) => void,
    label: string,
  ) {
    this.baseLayer = s('g', { class: 'cg-base' });
    this.districtLayer = s('g', { class: 'cg-districts' });
    this.labelLayer = s('g', { class: 'cg-labels' });
    this.pointLayer = s('g', { class: 'cg-point' });
    this.svg = s(
      'svg',
      { viewBox: `0 0 ${W} ${H}`, class: 'cg-map-svg', 'aria-hidden': 'true', focusable: 'false' },
      this.baseLayer,
      this.districtLayer,
      this.labelLayer,
      this.pointLayer,
    );
    this.element = document.createElement('div');
    this.element.className = 'cg-map';
    this.element.tabIndex = 0;
    this.element.setAttribute('role', 'application');
    this.element.setAttribute('aria-roledescription', 'map');
    this.element.setAttribute('aria-label', `${label}. Arrow keys move the cross; Enter looks up the point under it.`);
    this.element.append(this.svg);
    this.svg.addEventListener('click', (e) => this.pickAt(this.toDrawing(e.clientX, e.clientY)));
    this.element.addEventListener('keydown', (e) => this.key(e));
    this.element.addEventListener('focus', () => {
      this.cursor ??=
        this.point === undefined
          ? [W / 2, H / 2]
          : (this.projection([this.point.lng, this.point.lat]) ?? [W / 2, H / 2]);
      this.drawPoint();
    });
    this.element.addEventListener('blur', () => this.drawPoint());
  }

  /**
   * Loads the base map (us-atlas, from the gateway) and draws it: the nation and state lines
   * first (115 kB, for the first paint), county lines (840 kB) once a lookup zooms in.
   */
  async loadAtlas(base: string): Promise<void> {
    this.atlasBase = base;
    const topo = await fetchTopology<'nation' | 'states'>(`${base}/states.json`);
    this.atlas = {
      nation: feature(topo, topo.objects.nation),
      states: mesh(topo, topo.objects.states, (a, b) => a !== b),
      counties: undefined,
    };
    if (this.drawn.length === 0) this.showNation();
    else this.render();
  }

  /** County lines within each state (state lines are drawn once, heavier, on their own). */
  private loadCounties(): void {
    if (this.countiesLoading !== undefined || this.atlasBase === undefined) return;
    this.countiesLoading = fetchTopology<'counties'>(`${this.atlasBase}/counties.json`).then(
      (topo) => {
        const stateOf = (id: string | number | undefined) => String(id ?? '').slice(0, 2);
        const counties = mesh(topo, topo.objects.counties, (a, b) => a !== b && stateOf(a.id) === stateOf(b.id));
        if (this.atlas !== undefined) this.atlas.counties = counties;
        this.render();
      },
      () => {
        // The county lines are context only; the districts stand without them.
      },
    );
  }

  /** The whole country (Alaska and Hawaii inset), nothing chosen. */
  showNation(): void {
    this.drawn = [];
    this.point = undefined;
    this.cursor = undefined;
    this.projection = geoAlbersUsa();
    if (this.atlas !== undefined)
      this.projection.fitExtent(
        [
          [PAD, PAD],
          [W - PAD, H - PAD],
        ],
        this.atlas.nation,
      );
    else this.projection.scale(1280).translate([W / 2, H / 2]);
    this.render();
  }

  /** The districts at `point`, the view fitted to the narrower ones (the state would dwarf a house district). */
  show(point: Point, drawn: DrawnDistrict[]): void {
    this.loadCounties();
    this.point = point;
    this.cursor = undefined;
    this.drawn = [...drawn].sort((a, b) => byLevel(a.district, b.district));
    const narrow = this.drawn.filter((d) => d.district.level !== 'state' && d.district.level !== 'national');
    const focus: FeatureCollection = {
      type: 'FeatureCollection',
      features: (narrow.length > 0 ? narrow : this.drawn).map((d) => d.outline),
    };
    this.projection = geoMercator();
    if (focus.features.length > 0)
      this.projection.fitExtent(
        [
          [PAD, PAD],
          [W - PAD, H - PAD],
        ],
        focus,
      );
    else
      this.projection
        .center([point.lng, point.lat])
        .scale(20_000)
        .translate([W / 2, H / 2]);
    this.projection.clipExtent([
      [0, 0],
      [W, H],
    ]);
    this.render();
  }

  private render(): void {
    const path = geoPath(this.projection);
    this.baseLayer.replaceChildren();
    if (this.atlas !== undefined) {
      this.baseLayer.append(
        s('path', { class: 'cg-nation', d: path(this.atlas.nation) ?? '' }),
        s('path', {
          class: 'cg-county-lines',
          d: this.atlas.counties === undefined ? '' : (path(this.atlas.counties) ?? ''),
        }),
        s('path', { class: 'cg-state-lines', d: path(this.atlas.states) ?? '' }),
      );
    }
    this.districtLayer.replaceChildren(
      ...this.drawn.map(({ district, outline }) => {
        const serving = district.roles.includes('serving');
        const electing = district.roles.includes('electing');
        return s('path', {
          class: `cg-district${serving ? '' : ' cg-electing-only'}${electing ? '' : ' cg-serving-only'}`,
          d: path(outline) ?? '',
          stroke: levelColour(district.level),
          fill: levelColour(district.level),
          'data-slug': district.slug,
          'data-level': district.level,
          'data-roles': district.roles.join(' '),
        });
      }),
    );
    this.renderLabels(path);
    this.drawPoint();
  }

  /** A label per district at its centroid, kept inside the view and nudged down off the ones already placed. */
  private renderLabels(path: ReturnType<typeof geoPath>): void {
    const placed: { x: number; y: number; w: number }[] = [];
    const labels = this.drawn.map(({ district, outline }) => {
      const text = `${levelLabel(district.level)}: ${district.name}`;
      const w = text.length * 8.5;
      const [cx, cy] = path.centroid(outline);
      let x = clamp(Number.isFinite(cx) ? cx : W / 2, w / 2 + 4, W - w / 2 - 4);
      let y = clamp(Number.isFinite(cy) ? cy : H / 2, 24, H - 8);
      for (
        let tries = 0;
        tries < 30 && placed.some((p) => Math.abs(p.y - y) < 22 && Math.abs(p.x - x) < (p.w + w) / 2);
        tries += 1
      ) {
        y += 22;
        if (y > H - 8) {
          y = 24;
          x = clamp(x + 40, w / 2 + 4, W - w / 2 - 4);
        }
      }
      placed.push({ x, y, w });
      return s(
        'text',
        {
          class: 'cg-label',
          x: x.toFixed(1),
          y: y.toFixed(1),
          fill: levelColour(district.level),
          'data-slug': district.slug,
        },
        text,
      );
    });
    this.labelLayer.replaceChildren(...labels);
  }

  private drawPoint(): void {
    this.pointLayer.replaceChildren();
    if (this.point !== undefined) {
      const at = this.projection([this.point.lng, this.point.lat]);
      if (at !== null) this.pointLayer.append(s('circle', { class: 'cg-marker', cx: at[0], cy: at[1], r: 7 }));
    }
    if (this.cursor !== undefined && document.activeElement === this.element) {
      const [x, y] = this.cursor;
      this.pointLayer.append(
        s('path', { class: 'cg-cursor', d: `M${x - 14},${y}H${x + 14}M${x},${y - 14}V${y + 14}` }),
      );
    }
  }

  private key(e: KeyboardEvent): void {
    const step = e.shiftKey ? STEP * 4 : STEP;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const move = moves[e.key];
    const cursor = this.cursor ?? [W / 2, H / 2];
    if (move !== undefined) {
      e.preventDefault();
      this.cursor = [clamp(cursor[0] + move[0], 0, W), clamp(cursor[1] + move[1], 0, H)];
      this.drawPoint();
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      this.pickAt(cursor);
    }
  }

  private toDrawing(clientX: number, clientY: number): [number, number] {
    const m = this.svg.getScreenCTM();
    if (m === null) return [W / 2, H / 2];
    const p = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
    return [p.x, p.y];
  }

  private pickAt([x, y]: [number, number]): void {
    const lngLat = this.projection.invert?.([x, y]);
    // Outside the projection's domain (the sea around the Albers insets): nothing to look up.
    if (lngLat === null || lngLat === undefined || !Number.isFinite(lngLat[0])) return;
    this.onPick({ lat: lngLat[1], lng: lngLat[0] });
  }
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}
