#!/usr/bin/env node
import { parseArgs } from 'node:util';
import {
  CivicError,
  ConfigError,
  createLogger,
  exitOnSignals,
  Lifecycle,
  settingsText,
  SHUTDOWN_FUSE_MS,
} from '@civicgraph/kit';
import { SERVICE_SETTINGS } from '@civicgraph/stack';
import { cliSettings, readCliConfig } from './config.js';
import { exportCommand } from './commands/export.js';
import { importCommand } from './commands/import.js';
import { keys } from './commands/keys.js';
import { sources } from './commands/sources.js';
import { banner, up } from './commands/up.js';

const USAGE = `usage: civicgraph <command>

commands:
  up [--demo]             start every service on this machine (embedded stores; NATS when NATS_URL is set),
                          serving the public sources (loaded on the first start, then refreshed on schedule);
                          --demo: synthetic elections over the real maps instead
  sources list|status [--json]
                          the public sources: last fetch, version, rows, status; the newest import runs
  sources run [source id…] [--json]
                          fetch the sources now (all, or those named) and import what changed
  keys create [--env test|live] [--plan explore|build|enterprise] [--entitlements contact,geography]
              [--states CO,DE] [--tiers federal,state] [--rate-limit N] [--label TEXT] [--json]
  import boundaries <file|folder>… --level <level> (--valid-from YYYY-MM-DD [--valid-to YYYY-MM-DD]
              [--elections-from YYYY-MM-DD] [--elections-to YYYY-MM-DD] | --undated) [--state XX]
              [--scale 1:20000000] [--replace | --max-delete-fraction F] [--strict] [--code-field F] [--name-field F] [--json]
                          GeoJSON, TopoJSON or Shapefile (.shp or .zip); a folder's boundary files, or several
                          files, as one map in one transaction; one layer per state; deleting stored districts
                          needs --replace; --scale: a generalised map's (else its name's, else full resolution);
                          a running service picks it up
  import ocd <folder|file.csv> --retrieved-at YYYY-MM-DD [--as-of YYYY-MM-DD] [--json]
  import legislators <legislators-current.yaml> --retrieved-at YYYY-MM-DD [--as-of YYYY-MM-DD] [--json]
  import openstates-people <state folder|folder of state folders> --retrieved-at YYYY-MM-DD
              [--places <ocd country-us folder|us_census_places.csv>] [--json]
                          governors, statewide officers, state legislators and (with --places) mayors
  import fec-candidates <weballYY.txt> [--cycle YYYY] [--legislators <legislators-current.yaml>] [--retrieved-at …] [--json]
  import results <medsl.csv|co24-contest-totals.csv|de24.zip> [--json]
  import precinct-districts <precinct returns: de24.zip|co24-denver-precinct.csv> [--json]
  import vip <feed.xml|feed.zip> [--json]
                          into the election graph; one atomic batch per row, re-runs change nothing;
                          --retrieved-at: when the source was published (required where it carries no date)
  export --out <folder> [--kinds candidacy,contest,…] [--states co,de] [--formats ndjson,csv,parquet] [--no-edges]
         [--contact] [--json]
                          the graph (or the kinds and states named) from one consistent snapshot of the store, as
                          verified files and a manifest naming the change-feed position, into <folder>/<export id>/;
                          contact fields only with --contact; a progress bar on a terminal
  keys revoke <key-id>
  keys list
  settings                every environment variable of this command and of each service process: default and meaning
`;

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === 'settings') {
    process.stdout.write([cliSettings, ...SERVICE_SETTINGS].map(settingsText).join('\n'));
    return;
  }
  const config = readCliConfig();
  if (command === 'up') {
    const { values } = parseArgs({ args: rest, options: { demo: { type: 'boolean', default: false } } });
    // Logs go to stderr so stdout carries only the banner.
    const log = createLogger('civicgraph', config.logLevel, 2);
    const lifecycle = new Lifecycle(log);
    exitOnSignals(lifecycle, log, SHUTDOWN_FUSE_MS);
    try {
      process.stdout.write(banner(await up(config, lifecycle, log, { demo: values.demo })));
    } catch (err) {
      await lifecycle.stop('start failed');
      throw err;
    }
    return;
  }
  if (command === 'import') {
    process.stdout.write(`${await importCommand(config, rest)}\n`);
    return;
  }
  if (command === 'sources') {
    process.stdout.write(`${await sources(config, rest)}\n`);
    return;
  }
  if (command === 'export') {
    process.stdout.write(`${await exportCommand(config, rest)}\n`);
    return;
  }
  if (command === 'keys') {
    process.stdout.write(`${await keys(config, rest)}\n`);
    return;
  }
  process.stdout.write(USAGE);
  if (command !== undefined && command !== 'help' && command !== '--help') process.exitCode = 2;
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof CivicError)
    process.stderr.write(`civicgraph: ${err.field === undefined ? '' : `${err.field}: `}${err.message}\n`);
  else if (err instanceof ConfigError) process.stderr.write(`civicgraph: ${err.message}\n`);
  else if (err instanceof TypeError && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS'))
    process.stderr.write(`civicgraph: ${err.message}\n${USAGE}`);
  else process.stderr.write(`civicgraph: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(2);
});
