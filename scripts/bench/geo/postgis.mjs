// PostGIS as a peer, driven through psql and pgbench (no Node PostgreSQL driver is installed).
//
// Per-lookup latency is measured inside the server: a plpgsql function walks a table of the
// same points and, for each, runs
//   SELECT array_agg(slug) FROM b WHERE ST_Covers(geom, ST_SetSRID(ST_MakePoint(lng, lat), 4326))
// bracketed by clock_timestamp() (1 µs resolution). plpgsql prepares that statement once and
// reuses its plan (as PREPARE/EXECUTE would), and the GiST index on `geom` is used. No client
// round trip is counted, which is the fair comparison with engines called in-process. The same
// loop records each answer, for agreement. A separate pgbench run (-M prepared, one connection,
// uniform random points in the workload's bounding box) gives the over-the-wire figure.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { percentile, psql } from '../lib/psql.mjs';

const DB = 'civicgraph_bench_geo';

/** A PostGIS session for the whole run; `start` returns `{ unavailable: reason }` when it cannot. */
export class PostGis {
  constructor(port, dir) {
    this.port = port;
    this.dir = dir;
  }

  static start(port) {
    const dir = mkdtempSync(join(tmpdir(), 'civic-bench-pg-'));
    const pg = new PostGis(port, dir);
    try {
      pg.psql('postgres', ['-c', `DROP DATABASE IF EXISTS ${DB}`, '-c', `CREATE DATABASE ${DB}`]);
      pg.createExtension();
      pg.version = pg
        .psql(DB, ['-A', '-t', '-c', "SELECT split_part(version(), ' ', 2) || ' / PostGIS ' || postgis_lib_version()"])
        .trim();
      return pg;
    } catch (err) {
      pg.stop();
      return { unavailable: String(err.message).replace(/\s+/g, ' ').slice(0, 200) };
    }
  }

  /**
   * CREATE EXTENSION postgis; when the server lacks it, installs Debian's package for the
   * server's major version (postgresql-<major>-postgis-3) with apt-get if this process may
   * (root, or password-less sudo), then tries again. Throws saying why when it cannot.
   */
  createExtension() {
    try {
      this.psql(DB, ['-c', 'CREATE EXTENSION postgis']);
      return;
    } catch (err) {
      if (!/is not available|could not open extension control file/i.test(err.message)) throw err;
    }
    const major = this.psql(DB, ['-A', '-t', '-c', 'SHOW server_version_num']).trim().slice(0, -4);
    const pkg = `postgresql-${major}-postgis-3`;
    const root = process.getuid?.() === 0;
    const cmd = root ? ['apt-get'] : ['sudo', '-n', 'apt-get'];
    process.stderr.write(`[bench:geo] PostGIS is not installed; trying ${cmd.join(' ')} install -y ${pkg}\n`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const run = (args) => spawnSync(cmd[0], [...cmd.slice(1), ...args], { encoding: 'utf8', env, timeout: 600_000 });
    let r = run(['install', '-y', '-q', pkg]);
    if (r.status !== 0) r = run(['update', '-q']).status === 0 ? run(['install', '-y', '-q', pkg]) : r;
    if (r.status !== 0) {
      throw new Error(
        `PostGIS is not installed and \`${cmd.join(' ')} install ${pkg}\` failed: ${(r.stderr || r.error?.message || '').trim().slice(-200)}`,
      );
    }
    this.psql(DB, ['-c', 'CREATE EXTENSION postgis']);
  }

  /** Runs psql against a database; throws with its stderr on failure. */
  psql(db, args) {
    return psql(this.port, db, args);
  }

  /**
   * Loads a workload's polygons (ST_GeomFromGeoJSON, SRID 4326) into table `b` with a GiST
   * index, and its point sets into `pts`. Build = table from GeoJSON + index + ANALYZE, timed
   * in the server; size = pg_total_relation_size(b) (heap + TOAST + index). Rings the source
   * left open are closed first (PostGIS requires closed rings; the other engines close them
   * implicitly), and counted.
   */
  load(regions, sets) {
    const regionsFile = join(this.dir, 'regions.tsv');
    const pointsFile = join(this.dir, 'points.tsv');
    const closed = [];
    writeFileSync(regionsFile, regions.map((r) => `${r.slug}\t${JSON.stringify(closeRings(r, closed))}\n`).join(''));
    writeFileSync(
      pointsFile,
      sets.flatMap((s, k) => Array.from(s.lng, (x, i) => `${k}\t${i}\t${x}\t${s.lat[i]}\n`)).join(''),
    );
    const sql = join(this.dir, 'load.sql');
    writeFileSync(sql, loadSql(regionsFile, pointsFile));
    const out = this.psql(DB, ['-f', sql]);
    const build = /BUILD_MS (\S+) BYTES (\S+)/.exec(out);
    if (build === null) throw new Error(`PostGIS load printed no build time: ${out}`);
    return { ms: Number(build[1]), bytes: Number(build[2]), closedRings: closed };
  }

  /**
   * Runs the timed loop over set `k`: 500 warm-up lookups price a lookup, then as many of the
   * set's points as fit in `budgetMs`. Per-lookup µs and answer keys.
   */
  lookups(k, budgetMs) {
    const warm = this.loop(k, 500);
    const usPerLookup = warm.samples.reduce((s, x) => s + x, 0) / warm.samples.length;
    const { samples, keys } = this.loop(k, Math.max(1_000, Math.floor((budgetMs * 1000) / usPerLookup)));
    const total = samples.reduce((s, x) => s + x, 0);
    samples.sort();
    return {
      lookupsPerSec: (samples.length * 1e6) / total,
      p50us: percentile(samples, 0.5),
      p99us: percentile(samples, 0.99),
      keys,
      n: samples.length,
    };
  }

  loop(k, limit) {
    const out = join(this.dir, 'res.txt');
    const sql = join(this.dir, 'run.sql');
    writeFileSync(
      sql,
      `SET jit = off;
SET max_parallel_workers_per_gather = 0;
TRUNCATE res;
SELECT bench_lookup(${k}, ${limit});
\\copy (SELECT id, us, coalesce(array_to_string(slugs, '|'), '') FROM res ORDER BY id) TO '${out}' WITH (FORMAT text, DELIMITER ',')
`,
    );
    this.psql(DB, ['-f', sql]);
    const rows = readFileSync(out, 'utf8')
      .split('\n')
      .filter((l) => l !== '');
    const samples = new Float64Array(rows.length);
    const keys = new Array(rows.length);
    for (const line of rows) {
      const [id, us, slugs] = line.split(',');
      samples[Number(id)] = Number(us);
      keys[Number(id)] = slugs.split('|').sort().join('|');
    }
    return { samples, keys };
  }

  /** pgbench -M prepared, one connection, `seconds` long, uniform points over `bbox`: tps and per-transaction latency. */
  pgbench(bbox, seconds) {
    const script = join(this.dir, 'pgbench.sql');
    const scale = 1_000_000;
    writeFileSync(
      script,
      `\\set lng ${bbox.minLng} + random(0, ${Math.round((bbox.maxLng - bbox.minLng) * scale)}) / ${scale}.0
\\set lat ${bbox.minLat} + random(0, ${Math.round((bbox.maxLat - bbox.minLat) * scale)}) / ${scale}.0
SELECT slug FROM b WHERE ST_Covers(geom, ST_SetSRID(ST_MakePoint(:lng, :lat), 4326));
`,
    );
    const prefix = join(this.dir, 'pgb');
    const r = spawnSync(
      'pgbench',
      [
        '-h',
        '127.0.0.1',
        '-p',
        String(this.port),
        '-U',
        'postgres',
        '-n',
        '-M',
        'prepared',
        '-c',
        '1',
        '-j',
        '1',
        '-T',
        String(seconds),
        '-f',
        script,
        '-l',
        `--log-prefix=${prefix}`,
        DB,
      ],
      { encoding: 'utf8', timeout: (seconds + 60) * 1000, cwd: this.dir },
    );
    if (r.status !== 0) throw new Error(`pgbench exited ${r.status}: ${r.stderr}`);
    const logs = readdirSync(this.dir).filter((f) => f.startsWith('pgb'));
    const lat = logs.flatMap((f) =>
      readFileSync(join(this.dir, f), 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => Number(l.split(' ')[2])),
    );
    for (const f of logs) rmSync(join(this.dir, f));
    const samples = Float64Array.from(lat).sort();
    const tps = /tps = ([\d.]+)/.exec(r.stdout);
    return {
      tps: tps === null ? NaN : Number(tps[1]),
      p50us: percentile(samples, 0.5),
      p99us: percentile(samples, 0.99),
      n: samples.length,
    };
  }

  stop() {
    try {
      this.psql('postgres', ['-c', `DROP DATABASE IF EXISTS ${DB}`]);
    } catch {
      // best effort: the database is recreated at the next start
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function loadSql(regionsFile, pointsFile) {
  return `SET client_min_messages = warning;
DROP TABLE IF EXISTS b_raw, b, pts, res;
CREATE UNLOGGED TABLE b_raw (slug text, gj text);
\\copy b_raw FROM '${regionsFile}'
CREATE TABLE pts (k int, id int, lng float8, lat float8, PRIMARY KEY (k, id));
\\copy pts FROM '${pointsFile}'
CREATE TABLE res (id int, us float8, slugs text[]);
SELECT clock_timestamp() AS t0 \\gset
CREATE TABLE b AS SELECT slug, ST_SetSRID(ST_GeomFromGeoJSON(gj), 4326) AS geom FROM b_raw;
CREATE INDEX b_geom ON b USING gist (geom);
ANALYZE b;
SELECT round(extract(epoch FROM clock_timestamp() - :'t0'::timestamptz) * 1000, 1) AS build_ms, pg_total_relation_size('b') AS bytes \\gset
\\echo BUILD_MS :build_ms BYTES :bytes
DROP TABLE b_raw;
ANALYZE pts;
CREATE OR REPLACE FUNCTION bench_lookup(set_k int, lim int) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  p record;
  t0 timestamptz;
  t1 timestamptz;
  s text[];
BEGIN
  FOR p IN SELECT id, lng, lat FROM pts WHERE pts.k = set_k AND pts.id < lim ORDER BY id LOOP
    t0 := clock_timestamp();
    SELECT array_agg(slug) INTO s FROM b WHERE ST_Covers(geom, ST_SetSRID(ST_MakePoint(p.lng, p.lat), 4326));
    t1 := clock_timestamp();
    INSERT INTO res VALUES (p.id, extract(epoch FROM t1 - t0) * 1000000, s);
  END LOOP;
END $$;
`;
}

/** The region's geometry with every ring closed; slugs of regions that had an open ring go to `closed`. */
function closeRings(region, closed) {
  const polys = region.geometry.type === 'Polygon' ? [region.geometry.coordinates] : region.geometry.coordinates;
  let fixed = false;
  const coordinates = polys.map((poly) =>
    poly.map((ring) => {
      const a = ring[0],
        b = ring[ring.length - 1];
      if (ring.length === 0 || (a[0] === b[0] && a[1] === b[1])) return ring;
      fixed = true;
      return [...ring, a];
    }),
  );
  if (!fixed) return region.geometry;
  closed.push(region.slug);
  return { type: 'MultiPolygon', coordinates };
}
